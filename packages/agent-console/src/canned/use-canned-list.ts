/**
 * The canned responses the signed-in advisor may use (the team's and their own), read once
 * per sign-in; the console's one owner of them. A failure leaves the list empty and says why.
 */
import type { CannedResponse } from "@chat-widget/protocol";
import { useEffect, useState } from "react";
import { errorText } from "../api/errors.js";

export function useCannedList(load: () => Promise<{ Canned: CannedResponse[] }>) {
  const [responses, setResponses] = useState<CannedResponse[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (r) => live && setResponses(r.Canned),
      (e: unknown) => live && setError(`The canned responses could not be loaded: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [load]);
  return { responses, error };
}
