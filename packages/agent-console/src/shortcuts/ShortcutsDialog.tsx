/** "Keyboard shortcuts" (issue 60): every shortcut of the console, in a modal dialog. */
import { ModalHeader } from "../components/ModalHeader.js";
import { useModal } from "../components/use-modal.js";
import { SHORTCUTS } from "./shortcuts.js";

export function ShortcutsDialog({ close }: { close(): void }) {
  const dialog = useModal();
  return (
    <dialog
      ref={dialog}
      className="modal-dialog shortcuts-dialog"
      aria-labelledby="shortcuts-h"
      onClose={close}
    >
      <ModalHeader titleId="shortcuts-h" title="Keyboard shortcuts" onClose={close} />
      <table>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.action}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </dialog>
  );
}
