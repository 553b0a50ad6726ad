/** View 3: the error notice, shown for 5 s when starting fails. */
import { Text } from "../texts.js";

export function ErrorNotice() {
  return (
    <div className="error-notice appear" role="alert">
      {Text.ERROR_NOTICE}
    </div>
  );
}
