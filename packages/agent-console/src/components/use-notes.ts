/**
 * A chat's internal notes in the console (issue 60): read when the chat comes into view, added
 * by the advisor holding it. This hook owns them for the chat view; a write that fails keeps
 * the text in the composer and says why.
 */
import { newClientToken, type Note } from "@chat-widget/protocol";
import { useCallback, useEffect, useState } from "react";
import { errorText } from "../api/errors.js";

export interface NotesAccess {
  list(contactId: string): Promise<{ Notes: Note[] }>;
  add(contactId: string, body: string, clientToken: string): Promise<Note>;
}

export function useNotes(contactId: string, access: NotesAccess) {
  const [notes, setNotes] = useState<Note[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    access.list(contactId).then(
      (r) => live && setNotes(r.Notes),
      (e: unknown) => live && setError(`The notes could not be loaded: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [contactId, access]);
  const add = useCallback(
    async (body: string): Promise<boolean> => {
      try {
        const note = await access.add(contactId, body, newClientToken());
        setNotes((all) => (all.some((n) => n.NoteId === note.NoteId) ? all : [...all, note]));
        setError(null);
        return true;
      } catch (e) {
        setError(`The note was not saved: ${errorText(e)}`);
        return false;
      }
    },
    [contactId, access],
  );
  return { notes, add, error, dismiss: () => setError(null) };
}
