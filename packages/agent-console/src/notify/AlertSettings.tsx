/** The header's alert switches (issue 60): desktop notifications (asked for on click) and sound. */
import type { Alerts } from "./alerts.js";

export function AlertSettings({ alerts }: { alerts: Alerts }) {
  const n = alerts.notifications;
  return (
    <>
      {n !== "unsupported" && (
        <button
          type="button"
          aria-pressed={n === "on"}
          disabled={n === "denied"}
          title={
            n === "denied" ? "Notifications are blocked in this browser's settings." : undefined
          }
          onClick={() => void alerts.toggleNotifications()}
        >
          {n === "denied" ? "Notifications blocked" : "Notifications"}
        </button>
      )}
      <button type="button" aria-pressed={alerts.sound} onClick={alerts.toggleSound}>
        Sound
      </button>
    </>
  );
}
