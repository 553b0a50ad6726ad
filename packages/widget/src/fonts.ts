/**
 * Poppins 500, normal and italic, shipped beside the script in `fonts/`. A font face declared
 * inside a shadow root is ignored by browsers, so it is registered on the document, once.
 */
export const FONT_STYLE_ID = "chat-widget-fonts";
export const FONT_FILES = {
  normal: "fonts/poppins-latin-500-normal.woff2",
  italic: "fonts/poppins-latin-500-italic.woff2",
} as const;

export function fontFaceCss(scriptUrl: string): string {
  return (["normal", "italic"] as const)
    .map(
      (style) =>
        `@font-face{font-family:"Poppins";font-style:${style};font-weight:500;font-display:swap;` +
        `src:url("${new URL(FONT_FILES[style], scriptUrl).href}") format("woff2")}`,
    )
    .join("\n");
}

/** Add the font faces to the document unless they are there already (with the CSP nonce). */
export function registerFonts(doc: Document, scriptUrl: string, nonce?: string): void {
  if (doc.getElementById(FONT_STYLE_ID)) return;
  const style = doc.createElement("style");
  if (nonce) style.nonce = nonce;
  style.id = FONT_STYLE_ID;
  style.textContent = fontFaceCss(scriptUrl);
  doc.head.appendChild(style);
}
