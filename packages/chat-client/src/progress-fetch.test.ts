import { describe, expect, it, vi } from "vitest";
import { createProgressFetch } from "./progress-fetch.js";

class FakeXhr {
  static last: FakeXhr;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: unknown;
  status = 200;
  upload: {
    onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
}

describe("attachment progress", () => {
  it("an upload PUT reports its progress and sends the returned headers", async () => {
    const progress = createProgressFetch(vi.fn(), () => new FakeXhr() as unknown as XMLHttpRequest);
    const seen: [number, number][] = [];
    progress.listener = (loaded, total) => seen.push([loaded, total]);
    const file = new Blob(["12345678"]);
    const done = progress.fetch("http://127.0.0.1/upload", {
      method: "PUT",
      headers: { "Content-Type": "image/png" },
      body: file,
    });
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.headers, xhr.body]).toEqual([
      "PUT",
      "http://127.0.0.1/upload",
      { "Content-Type": "image/png" },
      file,
    ]);
    xhr.upload.onprogress!({ loaded: 4, total: 8, lengthComputable: true });
    xhr.onload!();
    expect((await done).status).toBe(200);
    expect(seen).toEqual([
      [4, 8],
      [1, 1],
    ]);
  });

  it("a failed upload rejects as a network failure", async () => {
    const progress = createProgressFetch(vi.fn(), () => new FakeXhr() as unknown as XMLHttpRequest);
    const done = progress.fetch("http://127.0.0.1/upload", {
      method: "PUT",
      body: new Blob(["x"]),
    });
    FakeXhr.last.onerror!();
    await expect(done).rejects.toThrow("Failed to fetch");
  });

  it("a download GET reports the bytes received against the content length", async () => {
    const base = vi.fn(
      async () =>
        new Response(new Blob(["abcdef"]), {
          headers: { "content-length": "6", "content-type": "text/plain" },
        }),
    );
    const progress = createProgressFetch(base, null);
    const seen: number[] = [];
    progress.listener = (loaded, total) => {
      expect(total).toBe(6);
      seen.push(loaded);
    };
    const response = await progress.fetch("http://127.0.0.1/file", { method: "GET" });
    expect(await response.text()).toBe("abcdef");
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(6);
  });

  it("other calls (the participant API's POSTs) pass through untouched", async () => {
    const base = vi.fn(async () => new Response("{}"));
    const progress = createProgressFetch(base, null);
    await progress.fetch("http://127.0.0.1/participant/message", { method: "POST", body: "{}" });
    expect(base).toHaveBeenCalledWith("http://127.0.0.1/participant/message", {
      method: "POST",
      body: "{}",
    });
  });
});

describe("attachment progress without XMLHttpRequest", () => {
  it("an upload PUT goes through the base fetch when there is no XMLHttpRequest", async () => {
    const base = vi.fn(async () => new Response(null, { status: 200 }));
    const progress = createProgressFetch(base, null);
    const body = new Blob(["x"]);
    await progress.fetch("http://127.0.0.1/upload", { method: "PUT", body });
    expect(base).toHaveBeenCalledWith("http://127.0.0.1/upload", { method: "PUT", body });
  });
});
