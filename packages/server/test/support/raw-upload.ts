import { request, type ClientRequest } from "node:http";

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface OpenUpload {
  /** The request, its body still open: write parts of it, end it, or destroy it. */
  req: ClientRequest;
  /** The server's answer (rejects when the request is destroyed). */
  reply: Promise<RawReply>;
}

/**
 * A PUT whose body the test writes piece by piece (fetch sends a body whole). With
 * `contentLength` the body is declared that long; without, it is sent chunked.
 */
export function openUpload(
  url: string,
  headers: Record<string, string>,
  contentLength?: number,
  /** Sent from this loopback address (another client address to the server). */
  localAddress?: string,
): OpenUpload {
  const req = request(url, {
    method: "PUT",
    ...(localAddress ? { localAddress } : {}),
    headers: {
      ...headers,
      ...(contentLength === undefined ? {} : { "content-length": String(contentLength) }),
    },
  });
  const reply = new Promise<RawReply>((resolve, reject) => {
    req.on("error", reject);
    req.on("response", (res) => {
      const parts: Buffer[] = [];
      res.on("data", (part: Buffer) => parts.push(part));
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString("utf8"),
        }),
      );
    });
  });
  req.flushHeaders();
  return { req, reply };
}

/** Resolves once `condition` holds, checking every 20 ms; fails after `timeoutMs`. */
export async function waitFor(
  condition: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
