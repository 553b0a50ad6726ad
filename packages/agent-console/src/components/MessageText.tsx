/** Message text as markdown: raw HTML is never parsed and only http(s)/mailto links survive. */
import Markdown from "markdown-to-jsx/react";
import type { ComponentProps } from "react";

export function safeUrl(value: string): string | null {
  const url = value.trim();
  return /^(https?:\/\/|mailto:)/i.test(url) ? url : null;
}

function Link(props: ComponentProps<"a">) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

const OPTIONS = {
  disableParsingRawHTML: true,
  sanitizer: (value: string) => safeUrl(value),
  overrides: { a: { component: Link } },
};

export function MessageText({ text, markdown }: { text: string; markdown: boolean }) {
  if (!markdown) return <div className="text plain">{text}</div>;
  return (
    <div className="text markdown">
      <Markdown options={OPTIONS}>{text}</Markdown>
    </div>
  );
}
