/** Load `chat-views.js` (beside the widget script), first sharing React and the texts context. */
import { laterScriptUrl, VIEWS_VERSION } from "../later-scripts.js";
import type { Logger } from "../logger.js";
import { loadScriptGlobal } from "../script-global.js";
import { VIEWS_FUNCTIONS, VIEWS_GLOBAL, VIEWS_SCRIPT } from "./contract.js";
import type { LazyViews } from "./contract.js";
import { shareModules } from "./shared.js";

export const VIEWS_LOAD_FAILED = "The views script could not be loaded";

export const viewsScriptUrl = (widgetScriptUrl: string, version = VIEWS_VERSION): string =>
  laterScriptUrl(VIEWS_SCRIPT, widgetScriptUrl, version);

export function loadViewsScript(
  url: string,
  doc: Document,
  host: Record<string, unknown>,
  logger: Logger,
  nonce?: string,
): Promise<LazyViews | null> {
  shareModules(host);
  return loadScriptGlobal<LazyViews>(
    url,
    doc,
    host,
    { name: VIEWS_GLOBAL, functions: VIEWS_FUNCTIONS },
    logger,
    VIEWS_LOAD_FAILED,
    nonce,
  );
}
