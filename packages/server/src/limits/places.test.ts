/** Places (websockets per address): at most `max` held at once, shared across processes over Redis. */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { LimitStore, PlaceKey } from "./limit-store.js";
import { LIMIT_STORES, openRedisStore, REDIS_URL } from "./test-support/stores.js";

const place = (key = "203.0.113.7", max = 3): PlaceKey => ({ table: "websockets", key, max });

describe.each(LIMIT_STORES)("places, counting in %s", (_name, openStore) => {
  const stores: LimitStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  const open = async () => {
    const s = await openStore();
    stores.push(s);
    return s;
  };

  it("holds at most max per key; a release gives one back, once however often it is called", async () => {
    const store = await open();
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await store.acquire(place()));
    expect(held.every((r) => r !== null)).toBe(true);
    expect(await store.acquire(place())).toBeNull();
    expect(await store.acquire(place("203.0.113.8"))).not.toBeNull();
    await held[0]!();
    await held[0]!();
    expect(await store.acquire(place())).not.toBeNull();
    expect(await store.acquire(place())).toBeNull();
  });

  it("concurrent acquires cannot all slip past the limit", async () => {
    const store = await open();
    const got = await Promise.all(Array.from({ length: 20 }, () => store.acquire(place())));
    expect(got.filter((r) => r !== null)).toHaveLength(3);
  });
});

describe("places shared by two processes over Redis", () => {
  const stores: LimitStore[] = [];
  const admin = new Redis(REDIS_URL);
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  afterAll(() => admin.quit());

  it("count together; a process's places stop counting once it is gone (its alive key expired, or closed)", async () => {
    const prefix = `test:limits:${randomUUID()}:`;
    const a = await openRedisStore(prefix);
    stores.push(a);
    const [aAlive] = await admin.keys(`${prefix}alive:*`);
    const b = await openRedisStore(prefix);
    stores.push(b);
    const bAlive = (await admin.keys(`${prefix}alive:*`)).find((k) => k !== aAlive)!;
    expect(await a.acquire(place())).not.toBeNull();
    const fromB = await b.acquire(place());
    expect(fromB).not.toBeNull();
    await fromB!();
    expect(await b.acquire(place())).not.toBeNull();
    expect(await a.acquire(place())).not.toBeNull();
    expect(await a.acquire(place())).toBeNull();
    expect(await b.acquire(place())).toBeNull();

    // b dies holding one place: once its alive key has expired, that place is free again.
    expect(await admin.pttl(bAlive)).toBeGreaterThan(0);
    await admin.del(bAlive);
    expect(await a.acquire(place())).not.toBeNull();
    expect(await a.acquire(place())).toBeNull();

    // a closes: its places go with it.
    const c = await openRedisStore(prefix);
    stores.push(c);
    expect(await c.acquire(place())).toBeNull();
    await a.close();
    stores.splice(stores.indexOf(a), 1);
    for (let i = 0; i < 3; i++) expect(await c.acquire(place())).not.toBeNull();
    expect(await c.acquire(place())).toBeNull();
  });
});
