/**
 * Message text as markdown: raw HTML is never parsed, only http(s)/mailto links survive, and
 * images are never loaded (a remote image in chat content would tell its host who reads the
 * chat, and when): an image shows as a link the advisor may choose to open.
 */
import Markdown from "markdown-to-jsx/react";
import type { ComponentProps } from "react";

export function safeUrl(value: string): string | null {
  const url = value.trim();
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : null;
}

function Link(props: ComponentProps<"a">) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

function ImageAsLink({ src, alt }: ComponentProps<"img">) {
  const label = `Image: ${alt || "untitled"}`;
  const href = typeof src === "string" ? safeUrl(src) : null;
  return href ? <Link href={href}>{label}</Link> : <span>{label}</span>;
}

const OPTIONS = {
  disableParsingRawHTML: true,
  sanitizer: (value: string) => safeUrl(value),
  overrides: { a: { component: Link }, img: { component: ImageAsLink } },
};

export function MessageText({ text, markdown }: { text: string; markdown: boolean }) {
  if (!markdown) return <div className="text plain">{text}</div>;
  return (
    <div className="text markdown">
      <Markdown options={OPTIONS}>{text}</Markdown>
    </div>
  );
}
