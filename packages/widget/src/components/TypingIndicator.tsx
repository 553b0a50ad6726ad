/**
 * Three dots (2.5 s animation) while an agent types or the bot is loading; with the advisor's
 * name, "Sam is typing…" beside them (issue 24).
 */
import { useTexts } from "../texts-context.js";
import { fill } from "../texts.js";

export function TypingIndicator({ name = "" }: { name?: string }) {
  const t = useTexts();
  const label = name ? fill(t.IS_TYPING, { name }) : t.TYPING;
  return (
    <div className="typing" role="status" aria-label={label}>
      <span className="dot" />
      <span className="dot" />
      <span className="dot" />
      {name && <span className="who">{label}</span>}
    </div>
  );
}
