/**
 * The canned responses the signed-in advisor may use (the team's and their own), read once
 * per sign-in and kept as the server answers each change; the console's one owner of them.
 * A failed read leaves the list empty and says why; a failed change rejects, for the form
 * that asked to show it.
 */
import type { CannedInput, CannedResponse } from "@chat-widget/protocol";
import { useCallback, useEffect, useMemo, useState } from "react";
import { errorText } from "../api/errors.js";

export interface CannedAccess {
  list(): Promise<{ Canned: CannedResponse[] }>;
  create(input: CannedInput): Promise<CannedResponse>;
  update(cannedId: string, input: CannedInput): Promise<CannedResponse>;
  remove(cannedId: string): Promise<void>;
}

/** As the server lists them: by shortcut, the team's first on a tie. */
const byShortcut = (a: CannedResponse, b: CannedResponse) =>
  a.Shortcut < b.Shortcut ? -1 : a.Shortcut > b.Shortcut ? 1 : Number(b.Shared) - Number(a.Shared);

export function useCannedList(access: CannedAccess) {
  const [responses, setResponses] = useState<CannedResponse[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    access.list().then(
      (r) => live && setResponses(r.Canned),
      (e: unknown) => live && setError(`The canned responses could not be loaded: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [access]);

  const put = useCallback((saved: CannedResponse) => {
    setResponses((list) =>
      [...list.filter((c) => c.CannedId !== saved.CannedId), saved].sort(byShortcut),
    );
    return saved;
  }, []);
  const changes = useMemo(
    () => ({
      create: async (input: CannedInput) => put(await access.create(input)),
      update: async (cannedId: string, input: CannedInput) =>
        put(await access.update(cannedId, input)),
      remove: async (cannedId: string) => {
        await access.remove(cannedId);
        setResponses((list) => list.filter((c) => c.CannedId !== cannedId));
      },
    }),
    [access, put],
  );
  return { responses, error, ...changes };
}

export type CannedState = ReturnType<typeof useCannedList>;
