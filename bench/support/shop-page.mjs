// A plain shop page on its own loopback origin (no framework, no other third party), served
// without the widget's tag, with it, with `data-preload="idle"`, and, given a folder holding an
// earlier build of the widget, with that build's tag (its scripts served from the shop itself,
// its settings pointing at the contact centre). `close()` ends the server.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync } from "node:zlib";

const TYPES = { ".js": "text/javascript; charset=utf-8", ".json": "application/json" };

/** What a small shop's product page holds: a header, a grid of products, a footer. */
function page(title, tag) {
  const products = Array.from(
    { length: 12 },
    (_, i) => `<li><div class="img"></div><h2>Product ${i + 1}</h2><p>€${19 + i}.90</p>
<button type="button">Add to basket</button></li>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#222}header,footer{padding:16px 24px;background:#f4f4f5}
ul{list-style:none;display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:16px;padding:24px;margin:0}
li{border:1px solid #ddd;border-radius:8px;padding:12px}.img{height:120px;background:linear-gradient(135deg,#dbeafe,#fde68a);border-radius:6px}
h2{font-size:16px;margin:8px 0 0}button{font:inherit;padding:6px 12px}</style></head>
<body><header><h1>The shop</h1><p>Free delivery over €50.</p></header><main><ul>
${products}
</ul></main><footer>© The shop</footer>
${tag}</body></html>`;
}

/**
 * The shop's pages: `/plain`, `/widget` (the tag), `/idle` (the tag, data-preload="idle") and,
 * with `baselineDir`, `/baseline` (an earlier build's tag, its files under `/baseline-widget/`).
 */
export async function startShop(centreUrl, baselineDir) {
  const tag = (src, data = "") =>
    `<script src="${src}" ${data} defer></script>\n<chat-widget></chat-widget>`;
  const centre = ["widget-service-url", "gateway-url", "participant-endpoint"]
    .map((name) => `data-${name}="${centreUrl}"`)
    .concat(`data-telemetry-endpoint="${centreUrl}/telemetry"`)
    .join(" ");
  const pages = {
    "/plain": page("Shop", ""),
    "/widget": page("Shop", tag(`${centreUrl}/widget/chat-widget.js`)),
    "/idle": page("Shop", tag(`${centreUrl}/widget/chat-widget.js`, 'data-preload="idle"')),
    "/baseline": page("Shop", tag("/baseline-widget/chat-widget.js", centre)),
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://shop").pathname;
    const html = pages[path];
    if (html) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
      return;
    }
    const file =
      baselineDir &&
      path.startsWith("/baseline-widget/") &&
      join(baselineDir, normalize(path.slice(17)));
    if (file && file.startsWith(baselineDir) && existsSync(file)) {
      // Compressed as the contact centre serves its own build, so the bytes compare.
      const brotli = /\bbr\b/.test(request.headers["accept-encoding"] ?? "");
      response.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        ...(brotli ? { "content-encoding": "br" } : {}),
      });
      response.end(brotli ? brotliCompressSync(readFileSync(file)) : readFileSync(file));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
