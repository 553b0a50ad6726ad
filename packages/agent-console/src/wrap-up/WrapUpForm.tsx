/**
 * The wrap-up (issue 60): once the chat has ended, the advisor who held it may write what was
 * done, kept with the chat's notes (one per chat: saving again replaces it) and searched with
 * the rest of the conversation in History.
 */
import { WRAP_UP_MAX } from "@chat-widget/protocol";
import { useId, useState, type FormEvent } from "react";
import { errorText } from "../api/errors.js";

export function WrapUpForm({ save }: { save(body: string): Promise<unknown> }) {
  const id = useId();
  const [body, setBody] = useState("");
  const [said, setSaid] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) {
      setProblem("Write the wrap-up first.");
      return;
    }
    setSaving(true);
    try {
      await save(body);
      setProblem(null);
      setSaid("Wrap-up saved.");
    } catch (e) {
      setProblem(`The wrap-up was not saved: ${errorText(e)}`);
      setSaid("");
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="wrap-up" noValidate onSubmit={(e) => void submit(e)}>
      <label htmlFor={`${id}-body`}>Wrap-up (optional)</label>
      <textarea
        id={`${id}-body`}
        rows={2}
        value={body}
        maxLength={WRAP_UP_MAX}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          setBody(e.target.value);
          setSaid("");
        }}
      />
      <p className="note" id={`${id}-hint`}>
        What was done, for the team: kept with the chat&apos;s notes, never shown to the visitor.
      </p>
      <div className="actions">
        <button type="submit" disabled={saving}>
          Save wrap-up
        </button>
        <span role="status">{said}</span>
      </div>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}
