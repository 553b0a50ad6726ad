/**
 * A small markdown parser for bot and advisor messages. It produces a tree of plain data that
 * `Markdown.tsx` turns into React elements: raw HTML is never interpreted (it stays text), and
 * only http(s) and mailto links survive.
 */
export type Inline =
  | { t: "text"; v: string }
  | { t: "br" }
  | { t: "code"; v: string }
  | { t: "strong" | "em" | "del"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] };

export type Block =
  | { t: "p"; c: Inline[] }
  | { t: "h"; level: number; c: Inline[] }
  | { t: "pre"; v: string }
  | { t: "quote"; c: Block[] }
  | { t: "list"; ordered: boolean; start: number; items: Inline[][] }
  | { t: "hr" };

/** Only http(s) and mailto links are kept (anything else, e.g. javascript:, becomes text). */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)/i.test(trimmed) && !/[\s<>"]/.test(trimmed) ? trimmed : null;
}

const INLINE =
  /\\([\\`*_~[\]()<>#+\-.!|:])|(`+)([^`]|[^`][\s\S]*?[^`])\2(?!`)|(\*\*|__)(?=\S)([\s\S]*?\S)\4|~~(?=\S)([\s\S]*?\S)~~|\*(?=[^\s*])([\s\S]*?[^\s*])\*|(?<![\w])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w])|\[([^\]]*)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)|<((?:https?:\/\/|mailto:)[^\s>]+)>|(https?:\/\/[^\s<]*[^\s<.,;:!?)\]'"*_])|( {2,}|\\)?\n/;

function pushText(out: Inline[], v: string): void {
  if (v === "") return;
  const last = out[out.length - 1];
  if (last && last.t === "text") last.v += v;
  else out.push({ t: "text", v });
}

export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let rest = src;
  while (rest !== "") {
    const m = INLINE.exec(rest);
    if (!m) {
      pushText(out, rest);
      break;
    }
    pushText(out, rest.slice(0, m.index));
    rest = rest.slice(m.index + m[0].length);
    if (m[1] !== undefined) pushText(out, m[1]);
    else if (m[2] !== undefined) out.push({ t: "code", v: (m[3] ?? "").trim() || (m[3] ?? "") });
    else if (m[4] !== undefined) out.push({ t: "strong", c: parseInline(m[5] ?? "") });
    else if (m[6] !== undefined) out.push({ t: "del", c: parseInline(m[6]) });
    else if (m[7] !== undefined) out.push({ t: "em", c: parseInline(m[7]) });
    else if (m[8] !== undefined) out.push({ t: "em", c: parseInline(m[8]) });
    else if (m[9] !== undefined) {
      const href = safeHref(m[10] ?? "");
      const children = parseInline(m[9]);
      if (href) out.push({ t: "link", href, c: children });
      else out.push(...children);
    } else if (m[11] !== undefined || m[12] !== undefined) {
      const url = (m[11] ?? m[12]) as string;
      const href = safeHref(url);
      if (href) out.push({ t: "link", href, c: [{ t: "text", v: url.replace(/^mailto:/i, "") }] });
      else pushText(out, url);
    } else out.push({ t: "br" });
  }
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const HR = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const BULLET = /^ {0,3}([-*+])\s+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    HR.test(line) ||
    QUOTE.test(line) ||
    BULLET.test(line) ||
    ORDERED.test(line)
  );
}

export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(marker))
        body.push(lines[i++] as string);
      i++;
      blocks.push({ t: "pre", v: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        t: "h",
        level: (heading[1] as string).length,
        c: parseInline(heading[2] as string),
      });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string))
        body.push((lines[i++] as string).replace(QUOTE, ""));
      blocks.push({ t: "quote", c: parseMarkdown(body.join("\n")) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const pattern = bullet ? BULLET : ORDERED;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] as string;
        const m = pattern.exec(current);
        if (m) items.push(m[2] as string);
        else if (current.trim() !== "" && /^\s+/.test(current) && items.length > 0)
          items[items.length - 1] += "\n" + current.trim();
        else break;
        i++;
      }
      blocks.push({
        t: "list",
        ordered: !bullet,
        start: ordered ? Number(ordered[1]) : 1,
        items: items.map(parseInline),
      });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      (lines[i] as string).trim() !== "" &&
      (para.length === 0 || !startsBlock(lines[i] as string))
    )
      para.push(lines[i++] as string);
    blocks.push({ t: "p", c: parseInline(para.join("\n")) });
  }
  return blocks;
}
