/**
 * Every text the widget shows, in one table per locale (issue 24); English is built in, exactly
 * as the spec writes it (docs/product.md §2, §5, §8). `{name}` and `{count}` are filled in when shown.
 * Texts that are logged or sent, never shown, stay English: `Text`.
 */
/**
 * The texts the first script shows before the table is there (launcher/texts.ts): apart, so it
 * bundles these and not the whole table.
 */
export const LAUNCHER_EN = {
  DIR: "ltr",
  ERROR_NOTICE: "Something went wrong. Try again later.",
  OPEN: "Open chat",
  LOADING: "Loading",
  UNREAD_ONE: "Open chat, {count} unread message",
  UNREAD_OTHER: "Open chat, {count} unread messages",
};

export const en = {
  /** The locale's language tag and writing direction (set on the widget's root). */
  LANG: "en",
  DIR: LAUNCHER_EN.DIR,
  ERROR_NOTICE: LAUNCHER_EN.ERROR_NOTICE,
  MINIMISE: "Minimise chat window",
  CLOSE: "Close chat window",
  PLACEHOLDER_ACTIVE: "Type here...",
  PLACEHOLDER_BOT: "Select an option from above",
  CHAT_ENDED: "Chat has ended!",
  ADVISOR: "Advisor",
  JOINED: "{name} has joined the chat",
  LEFT: "{name} has left the chat",
  /** Issue 60: the advisor handed the chat on (to another advisor or back to the queue). */
  TRANSFERRED: "You are being transferred to another advisor",
  // Texts the spec leaves open: accessible names, attachments (docs/decisions.md #8), issues 9 and 24.
  OPEN: LAUNCHER_EN.OPEN,
  UNREAD_ONE: LAUNCHER_EN.UNREAD_ONE,
  UNREAD_OTHER: LAUNCHER_EN.UNREAD_OTHER,
  /** The page's title, alternating with its own while messages are unread (data-title-flash). */
  TITLE_UNREAD_ONE: "{count} new message",
  TITLE_UNREAD_OTHER: "{count} new messages",
  CHAT: "Chat",
  LOGO: "Logo",
  MESSAGES: "Chat messages",
  MESSAGE: "Message",
  TYPING: "Typing",
  IS_TYPING: "{name} is typing…",
  LOADING: LAUNCHER_EN.LOADING,
  SEND: "Send message",
  ATTACH: "Attach a file",
  UPLOADING: "Uploading",
  DOWNLOADING: "Downloading",
  DROP: "Drop a file to send it",
  FILE_REJECTED: "This file can't be sent",
  UNSUPPORTED_FILE_TYPE: "Unsupported file type",
  FILE_TOO_LARGE: "File is larger than 20 MB",
  UPLOAD_FAILED: "The upload failed",
  SENDING: "Sending…",
  SENT: "Sent",
  DELIVERED: "Delivered",
  READ: "Read",
  NOT_SENT: "Not sent",
  RETRY: "Retry",
  RECONNECTING: "Connection lost. Reconnecting… Messages you send will go when it is back.",
  TOO_LONG: "Too long to send",
  CHARACTERS: "characters",
  END_QUESTION: "End this chat?",
  END_CHAT: "End chat",
  CANCEL: "Cancel",
  NEW_CHAT: "Start a new chat",
  DOWNLOAD_TRANSCRIPT: "Download transcript",
  /** The visitor, in the downloaded transcript. */
  YOU: "You",
  /** A carousel template's card and its buttons (issue 26). */
  CARD: "{n} of {count}",
  PREVIOUS: "Previous card",
  NEXT: "Next card",
};

export type TextKey = keyof typeof en;
export type Texts = Record<TextKey, string>;

/** Fill `{name}`-style placeholders. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));

/** Texts logged or sent to the contact centre, never shown (docs/product.md §3, §8). */
export const Text = {
  UNABLE_TO_CONNECT: "Unable to connect.",
  UNABLE_TO_SEND: "Unable to send message",
  /** The customer role label sent as ParticipantDetails.DisplayName (docs/product.md §3). */
  CUSTOMER: "Customer",
} as const;

/** The composer's placeholder while the chat is not active (docs/product.md §5): empty in every language. */
export const PLACEHOLDER_INACTIVE = "";

/** A transfer's progress as shown beside its bar: 0.5 → "50%". */
export const percent = (fraction: number): string => `${Math.round(fraction * 100)}%`;

/** An advisor as the visitor sees them: their display name, else "Advisor" (docs/product.md §2). */
export const advisorName = (name: string | undefined, t: Texts): string => name || t.ADVISOR;
