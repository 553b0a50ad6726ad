/**
 * A conversation's tags (issue 60): each shown with a button that removes it, and a field that
 * adds one (Enter or Add), suggesting the team's tags as the advisor types. Every change sends
 * the whole set and shows what the server kept; a refusal is said and changes nothing.
 */
import {
  normalTag,
  TagLimits,
  type TagsResponse,
  type TagSuggestionsResponse,
} from "@chat-widget/protocol";
import { useEffect, useId, useState, type FormEvent } from "react";
import { errorText } from "../api/errors.js";

export interface TagsAccess {
  tags(contactId: string): Promise<TagsResponse>;
  setTags(contactId: string, tags: string[]): Promise<TagsResponse>;
  suggest(prefix: string): Promise<TagSuggestionsResponse>;
}

export function TagsEditor({ contactId, access }: { contactId: string; access: TagsAccess }) {
  const id = useId();
  const [tags, setTags] = useState<string[] | null>(null);
  const [text, setText] = useState("");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    access.tags(contactId).then(
      (r) => live && setTags(r.Tags),
      (e: unknown) => live && setProblem(`The tags could not be loaded: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [access, contactId]);
  useEffect(() => {
    let live = true;
    access.suggest(normalTag(text)).then(
      (r) => live && setSuggestions(r.Tags.map((t) => t.Tag)),
      () => {}, // suggestions are a help: without them the field still takes any tag
    );
    return () => {
      live = false;
    };
  }, [access, text]);

  const save = async (next: string[]) => {
    try {
      const r = await access.setTags(contactId, next);
      setTags(r.Tags);
      setProblem(null);
      return true;
    } catch (e) {
      setProblem(`The tags were not saved: ${errorText(e)}`);
      return false;
    }
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const tag = normalTag(text);
    if (!tag || !tags) return;
    if (tags.includes(tag)) {
      setText("");
      return;
    }
    if (await save([...tags, tag])) setText("");
  };

  return (
    <div className="tags" role="group" aria-labelledby={`${id}-h`}>
      <span id={`${id}-h`} className="tags-label">
        Tags
      </span>
      {tags && tags.length > 0 && (
        <ul className="tag-list">
          {tags.map((t) => (
            <li key={t} className="tag">
              {t}
              <button
                type="button"
                aria-label={`Remove tag ${t}`}
                onClick={() => void save(tags.filter((x) => x !== t))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="tag-add" onSubmit={(e) => void add(e)}>
        <input
          aria-label="Add a tag"
          list={`${id}-suggestions`}
          value={text}
          maxLength={TagLimits.TAG_MAX}
          disabled={tags === null}
          onChange={(e) => setText(e.target.value)}
        />
        <datalist id={`${id}-suggestions`}>
          {suggestions
            .filter((s) => !tags?.includes(s))
            .map((s) => (
              <option key={s} value={s} />
            ))}
        </datalist>
        <button type="submit" disabled={tags === null}>
          Add
        </button>
      </form>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </div>
  );
}
