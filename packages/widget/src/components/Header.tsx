/** The chat window's header: logo (56 px), minimise and close icons with their titles. */
import { ExtraText, Text } from "../texts.js";
import { CloseIcon, MinimiseIcon } from "./icons.js";

export interface HeaderProps {
  onMinimise: () => void;
  onClose: () => void;
}

export function Header({ onMinimise, onClose }: HeaderProps) {
  return (
    <div className="header">
      <div className="logo" role="img" aria-label={ExtraText.LOGO} />
      <div className="header-actions">
        <button
          type="button"
          className="icon-button"
          title={Text.MINIMISE}
          aria-label={Text.MINIMISE}
          onClick={onMinimise}
        >
          <MinimiseIcon />
        </button>
        <button
          type="button"
          className="icon-button close"
          title={Text.CLOSE}
          aria-label={Text.CLOSE}
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
    </div>
  );
}
