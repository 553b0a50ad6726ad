/**
 * Once the chat has ended (either side; issue 24) the window offers the transcript as a
 * plain-text file, `chat-transcript.txt` (beside "Start a new chat", components/Ending.tsx).
 */
import { timeLocale } from "../components/message-time.js";
import type { Entry } from "../state/entries.js";
import { transcriptText } from "../state/transcript-text.js";
import { useTexts } from "../texts-context.js";
import type { Texts } from "../texts.js";
import { saveFile } from "./save-file.js";

/** Each line's date and time in the widget's language (as the times on the messages). */
function downloadTranscript(entries: readonly Entry[], t: Texts): void {
  const locale = timeLocale(t.LANG, navigator.languages);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" });
  const text = transcriptText(entries, (iso) => time.format(new Date(iso)), t);
  saveFile(new Blob([text], { type: "text/plain;charset=utf-8" }), "chat-transcript.txt");
}

export function DownloadTranscript({ entries }: { entries: readonly Entry[] }) {
  const t = useTexts();
  return (
    <button type="button" onClick={() => downloadTranscript(entries, t)}>
      {t.DOWNLOAD_TRANSCRIPT}
    </button>
  );
}
