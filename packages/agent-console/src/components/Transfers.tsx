/** Attachments being sent or downloaded, with their progress. */
import type { Transfer } from "../state/chat-state.js";

export function Transfers({ transfers }: { transfers: Transfer[] }) {
  const shown = transfers.filter((t) => !t.done);
  if (shown.length === 0) return null;
  return (
    <ul className="transfers" aria-label="Attachments in progress">
      {shown.map((t) => {
        const percent = t.total > 0 ? Math.round((t.loaded / t.total) * 100) : undefined;
        const verb = t.direction === "upload" ? "Sending" : "Downloading";
        return (
          <li key={t.id}>
            <span>
              {verb} {t.name}
              {percent !== undefined ? ` ${percent}%` : "…"}
            </span>
            <progress max={100} value={percent} aria-label={`${verb} ${t.name}`} />
          </li>
        );
      })}
    </ul>
  );
}
