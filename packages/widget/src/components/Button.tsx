/** View 1: the floating chat button, with the loading indicator beside it while a chat loads. */
import { ExtraText } from "../texts.js";
import { ChatIcon, RefreshIcon } from "./icons.js";

export interface ButtonProps {
  loading: boolean;
  onClick: () => void;
  /** Take focus when shown: the window or the error notice it replaces had it (issue 24). */
  focus?: boolean;
}

export function Button({ loading, onClick, focus = false }: ButtonProps) {
  return (
    <>
      <button
        type="button"
        className="launcher appear"
        aria-label={ExtraText.OPEN}
        title={ExtraText.OPEN}
        // Focus returns here from the window or the error notice.
        autoFocus={focus}
        onClick={onClick}
      >
        <ChatIcon />
      </button>
      {loading && (
        <span className="loading-indicator" role="status" aria-label={ExtraText.LOADING}>
          <span className="rotate" style={{ display: "block" }}>
            <RefreshIcon />
          </span>
        </span>
      )}
    </>
  );
}
