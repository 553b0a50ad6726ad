/** View 1: the floating chat button, with the loading indicator beside it while a chat loads. */
import { useRef } from "react";
import { useTexts } from "../texts-context.js";
import { badgeText, launcherName } from "./unread-name.js";
import { ChatIcon, RefreshIcon } from "./icons.js";
import { useVisibleInset } from "./use-visible-inset.js";

export interface ButtonProps {
  loading: boolean;
  onClick: () => void;
  /** Take focus when shown: the window or the error notice it replaces had it (issue 24). */
  focus?: boolean;
  /** Messages that arrived while the window was hidden: a badge, and in the button's name. */
  unread?: number;
}

export function Button({ loading, onClick, focus = false, unread = 0 }: ButtonProps) {
  const t = useTexts();
  const name = launcherName(unread, t);
  const launcher = useRef<HTMLButtonElement>(null);
  useVisibleInset(launcher);
  return (
    <>
      <button
        type="button"
        ref={launcher}
        className="launcher appear"
        aria-label={name}
        title={name}
        // Focus returns here from the window or the error notice.
        autoFocus={focus}
        onClick={onClick}
      >
        <ChatIcon />
        {unread > 0 && (
          <span className="badge" aria-hidden="true">
            {badgeText(unread)}
          </span>
        )}
      </button>
      {loading && <LoadingIndicator />}
    </>
  );
}

/** "Loading", spinning beside the launcher (or alone where the host hid the launcher). */
export function LoadingIndicator({ alone = false }: { alone?: boolean }) {
  const t = useTexts();
  return (
    <span
      className={`loading-indicator${alone ? " alone" : ""}`}
      role="status"
      aria-label={t.LOADING}
    >
      <span className="rotate" style={{ display: "block" }}>
        <RefreshIcon />
      </span>
    </span>
  );
}
