/** The entry of `chat-views.js`: the rare views (see contract.ts), and their styles. */
export { Attachment } from "./Attachment.js";
export { DownloadTranscript } from "./DownloadTranscript.js";
export { Markdown } from "./Markdown.js";
export { PageReport } from "./PageReport.js";
export { UnreadAlerts } from "./UnreadAlerts.js";
export { Choice } from "./templates/Choice.js";
export { Template } from "./templates/Template.js";
export { TranscriptWindow } from "./TranscriptWindow.js";
export { viewStyles } from "./styles.js";
