/** The visitor's sent message as they read it (a choice as what was chosen: templates/choice.ts). */
import { timeLocale } from "../../components/message-time.js";
import { useTexts } from "../../texts-context.js";
import { shownChoice } from "./choice.js";

export function Choice({ text }: { text: string }) {
  const t = useTexts();
  return <>{shownChoice(text, timeLocale(t.LANG, navigator.languages))}</>;
}
