/**
 * Placeholders of a canned response (issue 60), filled before the advisor sees the text:
 * `{{visitor.name}}`, `{{advisor.name}}` and `{{attributes.<key>}}` (any of the chat's
 * attributes). Values are escaped for markdown, so a visitor's name cannot format or link the
 * reply; an unknown placeholder, or a value the chat lacks, becomes empty.
 */
export interface FillContext {
  visitorName: string;
  advisorName: string;
  attributes: Record<string, string>;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Markdown's special characters backslash-escaped (CommonMark's ASCII punctuation that matters). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, "\\$&");
}

export function fillCanned(body: string, context: FillContext): string {
  return body.replace(PLACEHOLDER, (_whole, name: string) => {
    let value: string | undefined;
    if (name === "visitor.name") value = context.visitorName;
    else if (name === "advisor.name") value = context.advisorName;
    else if (name.startsWith("attributes.")) value = context.attributes[name.slice(11)];
    return escapeMarkdown(value ?? "");
  });
}

/** The responses whose shortcut or title holds `query` (case-insensitive), shortcut matches first. */
export function matchCanned<T extends { Shortcut: string; Title: string }>(
  all: readonly T[],
  query: string,
): T[] {
  const q = query.toLowerCase();
  const byShortcut = all.filter((c) => c.Shortcut.startsWith(q));
  const byTitle = all.filter((c) => !c.Shortcut.startsWith(q) && c.Title.toLowerCase().includes(q));
  return [...byShortcut, ...byTitle];
}
