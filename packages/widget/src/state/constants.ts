/** Business constants of docs/product.md §9 used by the widget. */
export const ERROR_NOTICE_MS = 5000;
/** "This file can't be sent" shows as long as the spec's error notice. */
export const FILE_NOTICE_MS = ERROR_NOTICE_MS;
export const AGENT_TYPING_MS = 3000;
export const BOT_LOADING_MS = 3000;
export const TYPING_THROTTLE_MS = 10_000;
/**
 * Transcript pages of the service's maximum, most recent first: one restored after a reload (older
 * ones as the visitor scrolls up, issue 61), up to ten to repair a gap after a reconnect.
 */
export const TRANSCRIPT_PAGE_SIZE = 100;
export const TRANSCRIPT_RESTORE_PAGES = 1;
export const TRANSCRIPT_MAX_PAGES = 10;
/** After a restore shows its newest page, the older ones up to TRANSCRIPT_MAX_PAGES load in the background. */
export const TRANSCRIPT_PREFETCH_MS = 3000;
/** Past this many entries the transcript shows a window of them (lazy-views/TranscriptWindow.tsx). */
export const LONG_TRANSCRIPT = 200;
/** An image larger than this gets no thumbnail (issue 24). */
export const THUMBNAIL_MAX_BYTES = 5 * 1024 * 1024;
/** data-title-flash: the page's title and the unread count take turns this often (issue 24). */
export const TITLE_FLASH_MS = 1000;
