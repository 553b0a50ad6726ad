/** Inline SVG icons (no external requests). */
import { CHAT_PATH, REFRESH_PATH } from "./icon-paths.js";

const svg = {
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
} as const;

export const ChatIcon = () => (
  <svg {...svg}>
    <path d={CHAT_PATH} />
  </svg>
);
export const RefreshIcon = () => (
  <svg {...svg}>
    <path d={REFRESH_PATH} />
  </svg>
);
export const MinimiseIcon = () => (
  <svg {...svg}>
    <path d="M5 12h14" />
  </svg>
);
export const CloseIcon = () => (
  <svg {...svg}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
export const SendIcon = () => (
  <svg {...svg}>
    <path d="M22 2L11 13M22 2l-7 20-4-9-9-4 20-7z" />
  </svg>
);
export const AttachIcon = () => (
  <svg {...svg}>
    <path d="M21 11l-8.5 8.5a5 5 0 0 1-7-7L14 4a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7" />
  </svg>
);
