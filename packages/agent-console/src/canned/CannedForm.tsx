/**
 * The form for one of the advisor's own canned responses, new or changed: shortcut, title and
 * text, checked as the server checks them before asking; what the server refuses (a shortcut
 * taken, too many kept) is shown with the fields still filled in.
 */
import { CannedLimits, type CannedInput, type CannedResponse } from "@chat-widget/protocol";
import { useId, useState, type FormEvent } from "react";
import { errorText } from "../api/errors.js";

export interface CannedFormProps {
  /** The response being changed, or null for a new one. */
  editing: CannedResponse | null;
  save(input: CannedInput): Promise<unknown>;
  /** Leave the change (only offered while changing one). */
  cancel(): void;
}

const SHORTCUT = new RegExp(CannedLimits.SHORTCUT_PATTERN);

/** What is wrong with the input before the server is asked, or null. */
export function cannedInputProblem(input: CannedInput): string | null {
  if (!SHORTCUT.test(input.Shortcut))
    return "A shortcut is 1 to 32 lower-case letters, digits, - or _.";
  if (!input.Title.trim()) return "Give it a title.";
  if (!input.Body.trim()) return "Write the text it inserts.";
  return null;
}

export function CannedForm({ editing, save, cancel }: CannedFormProps) {
  const [shortcut, setShortcut] = useState(editing?.Shortcut ?? "");
  const [title, setTitle] = useState(editing?.Title ?? "");
  const [body, setBody] = useState(editing?.Body ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { Shortcut: shortcut.trim(), Title: title, Body: body };
    const wrong = cannedInputProblem(input);
    setProblem(wrong);
    if (wrong) return;
    setSaving(true);
    try {
      await save(input);
    } catch (error) {
      setProblem(`Not saved: ${errorText(error)}`);
    } finally {
      setSaving(false);
    }
  };

  const heading = editing ? `Change /${editing.Shortcut}` : "New canned response";
  return (
    <form
      className="canned-form"
      aria-labelledby={`${id}-h`}
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={`${id}-h`}>{heading}</h3>
      <label htmlFor={`${id}-shortcut`}>Shortcut</label>
      <div className="shortcut-field">
        <span aria-hidden="true">/</span>
        <input
          id={`${id}-shortcut`}
          value={shortcut}
          maxLength={32}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-shortcut-hint`}
          onChange={(e) => setShortcut(e.target.value)}
        />
      </div>
      <p className="note" id={`${id}-shortcut-hint`}>
        Typed after / in the composer: lower-case letters, digits, - or _.
      </p>
      <label htmlFor={`${id}-title`}>Title</label>
      <input
        id={`${id}-title`}
        value={title}
        maxLength={CannedLimits.TITLE_MAX}
        onChange={(e) => setTitle(e.target.value)}
      />
      <label htmlFor={`${id}-body`}>Text</label>
      <textarea
        id={`${id}-body`}
        value={body}
        rows={4}
        maxLength={CannedLimits.BODY_MAX}
        aria-describedby={`${id}-body-hint`}
        onChange={(e) => setBody(e.target.value)}
      />
      <p className="note" id={`${id}-body-hint`}>
        {
          "Markdown. {{visitor.name}}, {{advisor.name}} and {{attributes.orderNumber}} (or any attribute) are filled in."
        }
      </p>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={saving}>
          {editing ? "Save changes" : "Add"}
        </button>
        {editing && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
