/**
 * A `<dialog>` shown modal while mounted: it opens on mount (the browser keeps focus inside
 * and Escape closes it), and focus goes back to what opened it when it leaves.
 */
import { useEffect, useRef } from "react";

export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    // Focus goes back to what opened it (the dialog may leave the page before it closes).
    const opener = document.activeElement;
    const d = dialog.current;
    if (d && !d.open) {
      if (typeof d.showModal === "function") d.showModal();
      else d.setAttribute("open", "");
    }
    return () => {
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, []);
  return dialog;
}
