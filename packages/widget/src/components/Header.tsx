/** The chat window's header: logo (56 px), minimise and close icons with their titles. */
import { useTexts } from "../texts-context.js";
import { CloseIcon, MinimiseIcon } from "./icons.js";

export interface HeaderProps {
  onMinimise: () => void;
  onClose: () => void;
}

export function Header({ onMinimise, onClose }: HeaderProps) {
  const t = useTexts();
  return (
    <div className="header">
      <div className="logo" role="img" aria-label={t.LOGO} />
      <div className="header-actions">
        <button
          type="button"
          className="icon-button"
          title={t.MINIMISE}
          aria-label={t.MINIMISE}
          onClick={onMinimise}
        >
          <MinimiseIcon />
        </button>
        <button
          type="button"
          className="icon-button close"
          title={t.CLOSE}
          aria-label={t.CLOSE}
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
    </div>
  );
}
