/**
 * Deterministic hostile request bodies for the fuzz test: a seeded PRNG, and mutations of a
 * valid JSON body (wrong types, deep nesting, huge and truncated text, NUL, lone surrogates,
 * `__proto__` and duplicated keys, non-JSON bytes) with a content type to send it under.
 */

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The generator of request `index` under `seed`: each request reproducible on its own. */
export const rngFor = (seed: number, index: number): Rng =>
  new Rng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);

/** A JSON document kept as a tree whose objects may hold any keys, duplicated or `__proto__`. */
export type Json =
  | { t: "obj"; entries: [string, Json][] }
  | { t: "arr"; items: Json[] }
  | { t: "raw"; text: string };

export function toJson(value: unknown): Json {
  if (Array.isArray(value)) return { t: "arr", items: value.map(toJson) };
  if (typeof value === "object" && value !== null)
    return { t: "obj", entries: Object.entries(value).map(([k, v]) => [k, toJson(v)]) };
  return { t: "raw", text: JSON.stringify(value) ?? "null" };
}

export function serialize(node: Json): string {
  if (node.t === "raw") return node.text;
  if (node.t === "arr") return `[${node.items.map(serialize).join(",")}]`;
  return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`).join(",")}}`;
}

const raw = (text: string): Json => ({ t: "raw", text });
const str = (s: string): Json => raw(JSON.stringify(s));

/** Nested `depth` deep, built as text (no recursion anywhere). */
export const deepObject = (depth: number): string =>
  `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
export const deepArray = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const KB70 = "x".repeat(70 * 1024);

/** Values of the wrong type or shape for any field (JSON text). */
function wrongValue(rng: Rng): Json {
  switch (rng.int(34)) {
    case 0:
      return raw("null");
    case 1:
      return raw(rng.pick(["true", "false"]));
    case 2:
      return raw(rng.pick(["0", "-0", "-1", "1.5", "4.9e-324", "0.1e-400"]));
    case 3:
      return raw(rng.pick(["1e308", "-1e308", "1e309", "-1e309"]));
    case 4:
      return raw("123456789012345678901234567890123456789");
    case 5:
      return str(rng.pick(["NaN", "Infinity", "-Infinity", "-0", "1e308", "0x10", "", " "]));
    case 6:
      return raw(rng.pick(["[]", "[null]", '["a",1,null,{}]', "[[[]]]"]));
    case 7:
      return raw(rng.pick(["{}", '{"a":1}', '{"":""}']));
    case 8:
      return raw(deepObject(1000));
    case 9:
      return raw(deepArray(1000));
    case 10:
      return str(rng.pick(["\u0000", "a\u0000b", "\u0000".repeat(1000), "ok\u0000"]));
    case 11:
      return str(rng.pick(["\ud800", "\udc00x", "a\ud800\ud800b", "\udfff\ud800", "x\ud83d"]));
    case 12:
      return str(KB70);
    case 13:
      return str(`${KB70}\ud800`);
    case 14:
      return raw('{"__proto__":{"polluted":true}}');
    case 15:
      return raw('{"constructor":{"prototype":{"polluted":true}}}');
    case 16:
      return str(
        rng.pick(["2026-13-45T99:99:99Z", "0000-00-00T00:00:00Z", "275760-09-13T00:00:01Z"]),
      );
    case 17:
      return str("é".repeat(257));
    case 18:
      return str(
        rng.pick(["<script>alert(1)</script>", "'; DROP TABLE contacts; --", "../../etc"]),
      );
    case 19:
      return str(rng.pick(["\u202e\u0301\ufeff", "😀".repeat(600), "\u{10ffff}", "\r\n\t"]));
    case 20:
      return raw(`[${Array.from({ length: 2000 }, (_, i) => i).join(",")}]`);
    case 21:
      return raw(`{${Array.from({ length: 300 }, (_, i) => `"k${i}":"v"`).join(",")}}`);
    case 22:
      return str("%00%ff%fe");
    case 23:
      return raw('"\\u0000\\ud800\\udc00\\udfff"');
    case 24:
      return raw(rng.pick(["-1", "0", "2147483648", "9007199254740993", "1e21"]));
    case 25:
      return str("a".repeat(rng.pick([36, 37, 101, 129, 257, 501, 1001, 1025, 8193, 16385])));
    case 26:
      return raw(`{"__proto__":${deepObject(50)}}`);
    case 27:
      return raw('{"toString":1,"valueOf":null,"hasOwnProperty":"x"}');
    case 28:
      return raw(`[${'{"__proto__":{"isAdmin":true}},'.repeat(20)}1]`);
    case 29:
      return str("text/plain; charset=\u0000");
    case 30:
      return raw('{"name":"n","value":"\\ud800"}');
    case 31:
      return raw(`[${'{"name":"d","value":"v"},'.repeat(50)}{}]`);
    case 32:
      return raw(deepObject(rng.pick([25, 40, 200])).replace("1", '"\\u0000"'));
    default:
      return raw(deepArray(rng.pick([5000, 20000])));
  }
}

const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "",
  "\u0000",
  "\ud800",
  "a\u0000b",
  "toString",
  "hasOwnProperty",
  "k".repeat(300),
  "$where",
  "__defineGetter__",
];

/** Every object and array in the tree (the containers a mutation can change). */
function containers(root: Json): Json[] {
  const found: Json[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.t === "raw") continue;
    found.push(node);
    if (node.t === "obj") for (const [, v] of node.entries) stack.push(v);
    else stack.push(...node.items);
  }
  return found;
}

function mutateTree(rng: Rng, root: Json): { root: Json; what: string } {
  const all = containers(root);
  const objects = all.filter((n): n is Extract<Json, { t: "obj" }> => n.t === "obj");
  const target = all.length > 0 ? rng.pick(all) : null;
  const op = rng.int(9);
  if (op <= 2 && target) {
    // Replace a random field or element with a wrong value.
    const value = wrongValue(rng);
    if (target.t === "obj" && target.entries.length > 0) {
      const entry = rng.pick(target.entries);
      entry[1] = value;
      return { root, what: `field ${JSON.stringify(entry[0])} wrong` };
    }
    if (target.t === "arr" && target.items.length > 0) {
      target.items[rng.int(target.items.length)] = value;
      return { root, what: "element wrong" };
    }
  }
  if (op === 3 && objects.length > 0) {
    const o = rng.pick(objects);
    if (o.entries.length > 0) {
      const [k] = o.entries.splice(rng.int(o.entries.length), 1)[0]!;
      return { root, what: `field ${JSON.stringify(k)} removed` };
    }
  }
  if (op === 4 && objects.length > 0) {
    const o = rng.pick(objects);
    if (o.entries.length > 0) {
      const [k] = rng.pick(o.entries);
      const dup: [string, Json] = [k, wrongValue(rng)];
      if (rng.chance(0.5)) o.entries.push(dup);
      else o.entries.unshift(dup);
      return { root, what: `field ${JSON.stringify(k)} duplicated` };
    }
  }
  if (op === 5 && objects.length > 0) {
    const o = rng.pick(objects);
    const key = rng.pick(HOSTILE_KEYS);
    o.entries.push([key, rng.chance(0.5) ? raw('{"polluted":true}') : wrongValue(rng)]);
    return { root, what: `key ${JSON.stringify(key).slice(0, 20)} added` };
  }
  if (op === 6 && objects.length > 0) {
    rng.pick(objects).entries.push(["constructor", raw('{"prototype":{"polluted":true}}')]);
    return { root, what: "constructor.prototype added" };
  }
  if (op === 7) return { root: wrongValue(rng), what: "root replaced" };
  if (op === 8) return { root: { t: "arr", items: [root] }, what: "root wrapped in array" };
  // No container to change: replace the whole document.
  return { root: wrongValue(rng), what: "root replaced" };
}

const CONTENT_TYPES: (string | null)[] = [
  null,
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/x-amz-json-1.1",
  "application/jsonx",
  "*/*",
  "application/octet-stream",
  "image/png",
  "APPLICATION/JSON",
  "application/json;;;",
  "json",
  "",
];

export interface FuzzBody {
  /** The bytes to send (undefined: no body at all). */
  bytes: Buffer | undefined;
  /** The Content-Type to send (null: none). */
  contentType: string | null;
  /** What was done, for failure messages. */
  what: string;
  /** Larger than any body limit: the server may answer before reading it and close. */
  huge: boolean;
}

/** The mutated variants of `valid` (a JSON body), one per call. */
export function fuzzBody(rng: Rng, valid: unknown): FuzzBody {
  const whats: string[] = [];
  let root = toJson(valid);
  const rounds = 1 + (rng.chance(0.3) ? rng.int(3) : 0);
  for (let i = 0; i < rounds; i++) {
    const m = mutateTree(rng, root);
    root = m.root;
    whats.push(m.what);
  }
  let text = serialize(root);
  let bytes: Buffer | undefined = Buffer.from(text, "utf8");
  let huge = false;
  // Byte-level damage to some of them.
  if (rng.chance(0.35)) {
    switch (rng.int(12)) {
      case 0:
      case 1: {
        const at = rng.int(Math.max(1, text.length));
        text = text.slice(0, at);
        bytes = Buffer.from(text, "utf8");
        whats.push(`truncated at ${at}`);
        break;
      }
      case 2:
        bytes = Buffer.from(Array.from({ length: 1 + rng.int(200) }, () => rng.int(256)));
        whats.push("random bytes");
        break;
      case 3: {
        // Invalid UTF-8 (a CESU-8 lone surrogate, an overlong NUL, 0xff) inside a string.
        const bad = rng.pick([
          Buffer.from([0xed, 0xa0, 0x80]),
          Buffer.from([0xc0, 0x80]),
          Buffer.from([0xff]),
          Buffer.from([0xf4, 0x90, 0x80, 0x80]),
        ]);
        const quote = bytes.indexOf(0x22, bytes.indexOf(0x3a));
        const at = quote >= 0 ? quote + 1 : 0;
        bytes = Buffer.concat([bytes.subarray(0, at), bad, bytes.subarray(at)]);
        whats.push("invalid UTF-8");
        break;
      }
      case 4:
        bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
        whats.push("BOM");
        break;
      case 5:
        bytes = Buffer.from(text, "utf16le");
        whats.push("UTF-16LE");
        break;
      case 6:
        bytes = Buffer.from(rng.pick(["", " ", "\n\n", "\u0000", "null", "{}{}", "[", '"']));
        whats.push("empty or tiny");
        break;
      case 7:
        bytes = Buffer.concat([bytes, Buffer.from(rng.pick(["}", "\u0000", "garbage", ",{}"]))]);
        whats.push("trailing bytes");
        break;
      case 8:
        bytes = undefined;
        whats.push("no body");
        break;
      case 9: {
        const at = rng.int(bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0]), bytes.subarray(at)]);
        whats.push(`NUL byte at ${at}`);
        break;
      }
      case 10:
        bytes = Buffer.from(
          `a=1&b[__proto__][x]=2&${Buffer.from(text.slice(0, 200)).toString("base64url")}`,
        );
        whats.push("form encoded");
        break;
      default:
        if (rng.chance(0.3)) {
          bytes = Buffer.concat([bytes, Buffer.alloc(1_200_000, 0x20)]);
          huge = true;
          whats.push("1.2 MB");
        } else {
          bytes = Buffer.from(deepArray(rng.pick([1000, 50_000])));
          whats.push("deep array body");
        }
    }
  }
  const contentType = rng.chance(0.7) ? "application/json" : rng.pick(CONTENT_TYPES);
  return { bytes, contentType, what: whats.join(", "), huge };
}

/** Path segments that are wrong: empty-ish, NUL, too long, broken escapes, traversal. */
export function fuzzSegment(rng: Rng, real: string): string {
  return rng.pick([
    real,
    real,
    "x",
    "%00",
    "a%00b",
    "a".repeat(300),
    "a".repeat(2000),
    "%F0%9F%98%80",
    "..%2F..%2Fetc%2Fpasswd",
    "%E0%A4%A",
    "%",
    "%ED%A0%80",
    "%ff%fe",
    "__proto__",
    "constructor",
    encodeURIComponent(real) + "%20",
    "%2e%2e",
    "null",
  ]);
}

/** Query strings to append to a path (including none). */
export function fuzzQuery(rng: Rng): string {
  return rng.pick([
    "",
    "",
    "",
    "?__proto__[polluted]=1",
    "?constructor[prototype][polluted]=1",
    "?a=%00",
    "?a=%E0%A4%A",
    `?x=${"y".repeat(5000)}`,
    "?token=a&token=b",
    "?access_token=abc",
    "?&&&==",
  ]);
}

/** Header-safe wrong tokens (Node refuses control characters in header values). */
export const BAD_TOKENS = [
  "x",
  "not-a-token",
  "a".repeat(1001),
  "a".repeat(20_000),
  "%00",
  "ÿÿÿ",
  "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
  "null",
  "undefined",
  "__proto__",
];
