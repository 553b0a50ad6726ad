/**
 * A tiny web page on its own origin (another loopback port than the contact centre, so every
 * call from it is cross-origin and CORS is exercised) that loads the real
 * amazon-connect-chatjs bundle from node_modules and exposes a small harness to the test; `/ours`
 * is the same harness on our client's browser bundle.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** The published bundle (package.json "main"); it defines `window.connect`. */
export const CHATJS_BUNDLE = fileURLToPath(
  new URL(
    "../../../node_modules/amazon-connect-chatjs/dist/amazon-connect-chat.js",
    import.meta.url,
  ),
);
const HARNESS = fileURLToPath(new URL("./harness.js", import.meta.url));
/** Our client's browser bundle and its later chunks (`npm run build` first). */
const OUR_CLIENT = fileURLToPath(
  new URL("../../../packages/chat-client/dist/browser/", import.meta.url),
);

/** The same harness on our client: its ES module bundle as `window.connect`. */
const OUR_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>our client against the local contact centre</title></head>
  <body>
    <p>@chat-widget/chat-client harness</p>
    <script type="module">import { connect } from "/ours/chat-client.js"; window.connect = connect;</script>
    <script src="/harness.js"></script>
  </body>
</html>`;

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>chatjs against the local contact centre</title></head>
  <body>
    <p>amazon-connect-chatjs harness</p>
    <script src="/amazon-connect-chat.js"></script>
    <script src="/harness.js"></script>
  </body>
</html>`;

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const files: Record<string, { type: string; body: () => Promise<string | Buffer> }> = {
    "/": { type: "text/html; charset=utf-8", body: async () => PAGE },
    "/ours": { type: "text/html; charset=utf-8", body: async () => OUR_PAGE },
    "/amazon-connect-chat.js": { type: "text/javascript", body: () => readFile(CHATJS_BUNDLE) },
    "/harness.js": { type: "text/javascript", body: () => readFile(HARNESS) },
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const ours = /^\/ours\/([\w.-]+\.js)$/.exec(path)?.[1];
    const file = ours
      ? { type: "text/javascript", body: () => readFile(OUR_CLIENT + ours) }
      : files[path];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    file.body().then(
      (body) => response.writeHead(200, { "content-type": file.type }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
