/** Markdown from bots and advisors as React elements: no HTML from a message ever runs. */
import { createElement, useMemo } from "react";
import type { ReactNode } from "react";
import { parseMarkdown } from "./markdown-parse.js";
import type { Block, Inline } from "./markdown-parse.js";

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, k) => {
    switch (n.t) {
      case "text":
        return n.v;
      case "br":
        return <br key={k} />;
      case "code":
        return <code key={k}>{n.v}</code>;
      case "link":
        return (
          <a key={k} href={n.href} target="_blank" rel="noopener noreferrer">
            {inline(n.c)}
          </a>
        );
      default:
        return createElement(n.t === "del" ? "s" : n.t, { key: k }, inline(n.c));
    }
  });
}

function block(b: Block, k: number): ReactNode {
  switch (b.t) {
    case "p":
      return <p key={k}>{inline(b.c)}</p>;
    case "h":
      return createElement(`h${Math.min(b.level + 2, 6)}`, { key: k }, inline(b.c));
    case "pre":
      return (
        <pre key={k}>
          <code>{b.v}</code>
        </pre>
      );
    case "quote":
      return <blockquote key={k}>{b.c.map(block)}</blockquote>;
    case "hr":
      return <hr key={k} />;
    case "list": {
      const items = b.items.map((item, j) => <li key={j}>{inline(item)}</li>);
      return b.ordered ? (
        <ol key={k} start={b.start}>
          {items}
        </ol>
      ) : (
        <ul key={k}>{items}</ul>
      );
    }
  }
}

export function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{blocks.map(block)}</div>;
}
