/** Three dots (2.5 s animation) while an agent types or the bot is loading. */
export function TypingIndicator() {
  return (
    <div className="typing" role="status" aria-label="Typing">
      <span />
      <span />
      <span />
    </div>
  );
}
