/** View 3: the error notice, shown for 5 s when starting fails. */
import { useTexts } from "../texts-context.js";

export function ErrorNotice() {
  return (
    <div className="error-notice appear" role="alert">
      {useTexts().ERROR_NOTICE}
    </div>
  );
}
