/** The advisor's availability: Available takes chats from the queue, Offline does not. */
import { useState } from "react";
import type { AdvisorAvailability } from "@chat-widget/protocol";
import { errorText } from "../api/errors.js";

export interface AvailabilityToggleProps {
  availability: AdvisorAvailability;
  change(next: AdvisorAvailability): Promise<void>;
}

export function AvailabilityToggle({ availability, change }: AvailabilityToggleProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const available = availability === "Available";
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await change(available ? "Offline" : "Available");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="availability">
      <button
        type="button"
        role="switch"
        aria-checked={available}
        className={available ? "on" : "off"}
        disabled={busy}
        onClick={() => void toggle()}
      >
        <span className="dot" aria-hidden="true" />
        {available ? "Available" : "Offline"}
      </button>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </div>
  );
}
