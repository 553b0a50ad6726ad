/**
 * The path of each icon drawn before React (the launcher the first script paints,
 * launcher/paint.ts) as well as by React (icons.tsx): one copy of each shape.
 */
export const CHAT_PATH = "M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.6A8 8 0 1 1 21 12z";
export const REFRESH_PATH = "M21 12a9 9 0 1 1-2.6-6.4M21 3v6h-6";
