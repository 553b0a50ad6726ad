/** Three dots (2.5 s animation) while an agent types or the bot is loading. */
import { ExtraText } from "../texts.js";

export function TypingIndicator() {
  return (
    <div className="typing" role="status" aria-label={ExtraText.TYPING}>
      <span />
      <span />
      <span />
    </div>
  );
}
