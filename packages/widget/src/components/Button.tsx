/** View 1: the floating chat button, with the loading indicator beside it while a chat loads. */
import { ExtraText } from "../texts.js";
import { ChatIcon, RefreshIcon } from "./icons.js";

export interface ButtonProps {
  loading: boolean;
  onClick: () => void;
}

export function Button({ loading, onClick }: ButtonProps) {
  return (
    <>
      <button
        type="button"
        className="launcher appear"
        aria-label={ExtraText.OPEN}
        title={ExtraText.OPEN}
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
