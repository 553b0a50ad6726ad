/**
 * Once the chat has ended (either side; issue 24) the window offers a new chat and the
 * transcript as a plain-text file, `chat-transcript.txt`.
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

export interface EndedActionsProps {
  entries: readonly Entry[];
  onNewChat: () => void;
}

export function EndedActions({ entries, onNewChat }: EndedActionsProps) {
  const t = useTexts();
  return (
    <div className="ending">
      <button type="button" className="primary" onClick={onNewChat}>
        {t.NEW_CHAT}
      </button>
      <button type="button" onClick={() => downloadTranscript(entries, t)}>
        {t.DOWNLOAD_TRANSCRIPT}
      </button>
    </div>
  );
}
