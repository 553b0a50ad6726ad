/** The canned responses matching what the advisor typed after `/`, under the composer. */
import type { CannedResponse } from "@chat-widget/protocol";

export const cannedOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

export function CannedList({
  id,
  query,
  matches,
  active,
  choose,
}: {
  id: string;
  query: string;
  matches: readonly CannedResponse[];
  active: number;
  choose(response: CannedResponse): void;
}) {
  if (matches.length === 0)
    return (
      <p className="canned-none" role="status">
        No canned response matches /{query}
      </p>
    );
  return (
    <ul className="canned-list" role="listbox" id={id} aria-label="Canned responses">
      {matches.map((c, i) => (
        <li
          key={c.CannedId}
          id={cannedOptionId(id, i)}
          role="option"
          aria-selected={i === active}
          // Chosen with the mouse without taking focus from the composer.
          onMouseDown={(e) => {
            e.preventDefault();
            choose(c);
          }}
        >
          <span className="shortcut">/{c.Shortcut}</span> <span className="title">{c.Title}</span>
          {c.Shared ? null : <span className="own"> · yours</span>}
          <span className="body">{c.Body}</span>
        </li>
      ))}
    </ul>
  );
}
