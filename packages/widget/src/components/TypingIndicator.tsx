/**
 * Three dots (2.5 s animation) while an agent types or the bot is loading; with the advisor's
 * name, "Sam is typing…" beside them (issue 24).
 */
import { ExtraText } from "../texts.js";

export function TypingIndicator({ name = "" }: { name?: string }) {
  const label = name ? ExtraText.typing(name) : ExtraText.TYPING;
  return (
    <div className="typing" role="status" aria-label={label}>
      <span className="dot" />
      <span className="dot" />
      <span className="dot" />
      {name && <span className="who">{label}</span>}
    </div>
  );
}
