/** Every text the widget shows or logs, exactly as the spec writes it (spec §2, §8, §5). */
export const Text = {
  ERROR_NOTICE: "Something went wrong. Try again later.",
  MINIMISE: "Minimise chat window",
  CLOSE: "Close chat window",
  PLACEHOLDER_ACTIVE: "Type here...",
  PLACEHOLDER_BOT: "Select an option from above",
  PLACEHOLDER_INACTIVE: "",
  CHAT_ENDED: "Chat has ended!",
  ADVISOR: "Advisor",
  UNABLE_TO_CONNECT: "Unable to connect.",
  UNABLE_TO_SEND: "Unable to send message",
  /** The customer role label sent as ParticipantDetails.DisplayName (spec §3). */
  CUSTOMER: "Customer",
  joined: (name: string) => `${name} has joined the chat`,
  left: (name: string) => `${name} has left the chat`,
} as const;

/** Widget texts the spec leaves open (accessible labels; decision 8: attachments). */
export const ExtraText = {
  OPEN: "Open chat",
  CHAT: "Chat",
  LOGO: "Logo",
  MESSAGE: "Message",
  TYPING: "Typing",
  LOADING: "Loading",
  SEND: "Send message",
  ATTACH: "Attach a file",
  UPLOADING: "Uploading",
  DOWNLOADING: "Downloading",
  DROP: "Drop a file to send it",
  FILE_REJECTED: "This file can't be sent",
  UNSUPPORTED_FILE_TYPE: "Unsupported file type",
  FILE_TOO_LARGE: "File is larger than 20 MB",
  UPLOAD_FAILED: "The upload failed",
  /** An outgoing message not stored yet, and one refused for good (issue 9). */
  SENDING: "Sending…",
  /** Under the visitor's last stored message (issue 24). */
  SENT: "Sent",
  DELIVERED: "Delivered",
  READ: "Read",
  NOT_SENT: "Not sent",
  RETRY: "Retry",
  /** While the connection is down (issue 9): the chat goes on, messages wait. */
  RECONNECTING: "Connection lost. Reconnecting… Messages you send will go when it is back.",
  /** Beside the counter once a message is over the 1,024-character limit (issue 9). */
  TOO_LONG: "Too long to send",
  CHARACTERS: "characters",
  /** The launcher's name while messages wait unread (issue 24). */
  unread: (count: number) => `Open chat, ${count} unread ${count === 1 ? "message" : "messages"}`,
  /** Beside the typing dots while an advisor types (issue 24). */
  typing: (name: string) => `${name} is typing…`,
  /** Before the close icon ends a chat, and once a chat has ended (issue 24). */
  END_QUESTION: "End this chat?",
  END_CHAT: "End chat",
  CANCEL: "Cancel",
  NEW_CHAT: "Start a new chat",
  DOWNLOAD_TRANSCRIPT: "Download transcript",
  /** The visitor, in the downloaded transcript. */
  YOU: "You",
  /** The transcript's name for screen readers (issue 24). */
  MESSAGES: "Chat messages",
} as const;

/** A transfer's progress as shown beside its bar: 0.5 → "50%". */
export const percent = (fraction: number): string => `${Math.round(fraction * 100)}%`;
