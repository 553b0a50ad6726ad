/**
 * Once the chat has ended (either side; issue 24) the window offers a new chat and the
 * transcript as a plain-text file, `chat-transcript.txt`.
 */
import type { Entry } from "../state/entries.js";
import { transcriptText } from "../state/transcript-text.js";
import { useTexts } from "../texts-context.js";
import type { Texts } from "../texts.js";
import { saveFile } from "./save-file.js";

const fileTime = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "short" });

function downloadTranscript(entries: readonly Entry[], t: Texts): void {
  const text = transcriptText(entries, (iso) => fileTime.format(new Date(iso)), t);
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
