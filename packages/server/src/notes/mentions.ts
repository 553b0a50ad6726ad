/**
 * `@username` mentions in a note: the words after an `@` at the start or after a space, with
 * trailing punctuation dropped ("thanks @kim." names kim), each at most once.
 */
const MENTION = /(?:^|\s)@([A-Za-z0-9._@-]{1,64})/g;

export function mentionedUsernames(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(MENTION)) {
    const name = match[1]!.replace(/[.,;:!?-]+$/, "");
    if (name) names.add(name);
  }
  return [...names];
}
