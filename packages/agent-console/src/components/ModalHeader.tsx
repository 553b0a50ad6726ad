/**
 * The header of the console's modal dialogs (`.modal-dialog`): their title, whose id names the
 * dialog (its `aria-labelledby`), then any actions of their own and Close.
 */
import type { ReactNode } from "react";

export interface ModalHeaderProps {
  /** The id of the title, which the dialog's `aria-labelledby` names. */
  titleId: string;
  title: ReactNode;
  /** Close's action; without it there is no Close (the dialog closes another way). */
  onClose?: () => void;
  /** The title takes focus when told to (`tabIndex={-1}`), e.g. after what had it went away. */
  titleFocusable?: boolean;
  /** Actions before Close, e.g. "Download transcript". */
  children?: ReactNode;
}

export function ModalHeader({
  titleId,
  title,
  onClose,
  titleFocusable,
  children,
}: ModalHeaderProps) {
  return (
    <header>
      <h2 id={titleId} tabIndex={titleFocusable ? -1 : undefined}>
        {title}
      </h2>
      {(children || onClose) && (
        <span className="actions">
          {children}
          {onClose && (
            <button type="button" onClick={onClose}>
              Close
            </button>
          )}
        </span>
      )}
    </header>
  );
}
