/**
 * An attachment's name must fit its declared type (issue 57: `report.html`, `setup.exe` and
 * `invoice.pdf\u202Eexe.html` were accepted as text/plain): its extension is one of those of
 * the declared type, through the aliases browsers really send (Chrome on Windows declares a
 * `.csv` as application/vnd.ms-excel), and it holds no control, bidirectional-control or
 * invisible characters, nor a path.
 */
import { ContentType } from "./content-types.js";

/** The extensions (lower case, no dot) a file of each accepted type may have. */
export const ATTACHMENT_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  [ContentType.TEXT_PLAIN]: ["txt", "text", "log", "csv", "md"],
  [ContentType.TEXT_CSV]: ["csv"],
  [ContentType.APPLICATION_JSON]: ["json"],
  [ContentType.APPLICATION_PDF]: ["pdf"],
  [ContentType.APPLICATION_DOC]: ["doc", "dot"],
  [ContentType.APPLICATION_DOCX]: ["docx"],
  // Excel's type is what Chrome and Edge on Windows declare for a .csv.
  [ContentType.APPLICATION_XLS]: ["xls", "xlt", "csv"],
  [ContentType.APPLICATION_XLSX]: ["xlsx"],
  [ContentType.APPLICATION_PPT]: ["ppt", "pps", "pot"],
  [ContentType.APPLICATION_PPTX]: ["pptx"],
  [ContentType.IMAGE_JPG]: ["jpg", "jpeg", "jpe", "jfif"],
  [ContentType.IMAGE_PNG]: ["png"],
  [ContentType.IMAGE_HEIC]: ["heic", "heif"],
  [ContentType.AUDIO_WAV]: ["wav", "wave"],
  [ContentType.AUDIO_X_WAV]: ["wav", "wave"],
  [ContentType.AUDIO_VND_WAVE]: ["wav", "wave"],
  [ContentType.VIDEO_QUICKTIME]: ["mov", "qt"],
  [ContentType.VIDEO_MP4]: ["mp4", "m4v"],
  [ContentType.TEXT_RICHTEXT]: ["rtx", "rtf"],
  [ContentType.TEXT_RTF]: ["rtf"],
  [ContentType.APPLICATION_RTF]: ["rtf"],
  [ContentType.APPLICATION_X_RTF]: ["rtf"],
};

/**
 * C0 and C1 controls, bidirectional controls (marks, embeddings, overrides, isolates),
 * zero-width and other invisible characters, as ranges of code points.
 */
const HIDDEN: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
];

const hides = (name: string): boolean =>
  [...name].some((c) => {
    const cp = c.codePointAt(0)!;
    return c === "/" || c === "\\" || HIDDEN.some(([from, to]) => cp >= from && cp <= to);
  });

/** Why `name` cannot be the name of a file declared `contentType` (lower case), or null. */
export function attachmentNameProblem(name: string, contentType: string): string | null {
  if (hides(name))
    return "AttachmentName holds control, invisible or bidirectional characters, or a path.";
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  const allowed = ATTACHMENT_EXTENSIONS[contentType] ?? [];
  if (!allowed.includes(extension)) {
    const list = allowed.map((e) => `.${e}`).join(", ");
    return `AttachmentName ${JSON.stringify(name)} does not fit ContentType ${contentType}: its name must end in ${list}.`;
  }
  return null;
}
