/**
 * Warm the connection to the contact centre when the visitor first reaches for the launcher
 * (issue 61): before that the page fetches nothing from it but the first script.
 */

/** A `<link rel="preconnect">` for each origin of `urls` other than the page's own, once. */
export function preconnect(doc: Document, urls: readonly string[]): void {
  const origins = new Set(urls.map((url) => new URL(url, doc.baseURI).origin));
  origins.delete(new URL(doc.baseURI).origin);
  for (const origin of origins) {
    if (doc.head.querySelector(`link[rel="preconnect"][href="${origin}"]`)) continue;
    const link = doc.createElement("link");
    link.rel = "preconnect";
    link.href = origin;
    // The gateway's requests are CORS requests: the connection they use is the anonymous one.
    link.crossOrigin = "anonymous";
    doc.head.append(link);
  }
}

/**
 * A `<link rel="preload">` for one of the widget's later scripts, once, with the page's CSP
 * nonce: its download goes out now, beside the app's, and the `<script>` that runs it later
 * takes the answer instead of asking again (chat-views.js, wanted as soon as a chat exists).
 */
export function preloadScript(doc: Document, url: string, nonce?: string): void {
  if (doc.head.querySelector(`link[rel="preload"][href="${url}"]`)) return;
  const link = doc.createElement("link");
  link.rel = "preload";
  link.as = "script";
  link.href = url;
  if (nonce) link.nonce = nonce;
  doc.head.append(link);
}
