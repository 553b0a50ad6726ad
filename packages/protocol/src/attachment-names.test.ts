import { describe, expect, it } from "vitest";
import { ATTACHMENT_EXTENSIONS, attachmentNameProblem } from "./attachment-names.js";
import { ATTACHMENT_CONTENT_TYPES, ContentType } from "./content-types.js";

describe("an attachment's name fits its declared type (issue 57)", () => {
  it("every accepted type has its extensions", () => {
    for (const type of ATTACHMENT_CONTENT_TYPES) expect(ATTACHMENT_EXTENSIONS[type]).toBeTruthy();
  });

  it("accepts names whose extension belongs to the type, in any case, through the aliases browsers send", () => {
    const fits: [string, string][] = [
      ["invoice.pdf", ContentType.APPLICATION_PDF],
      ["notes.TXT", ContentType.TEXT_PLAIN],
      ["orders.csv", ContentType.TEXT_CSV],
      // Chrome and Edge on Windows declare a .csv as Excel's type.
      ["orders.csv", ContentType.APPLICATION_XLS],
      ["IMG_0001.HEIC", ContentType.IMAGE_HEIC],
      ["photo.jpeg", ContentType.IMAGE_JPG],
      ["clip.mov", ContentType.VIDEO_QUICKTIME],
      ["Résumé (final).docx", ContentType.APPLICATION_DOCX],
      ["voice.wav", ContentType.AUDIO_X_WAV],
    ];
    for (const [name, type] of fits) expect(attachmentNameProblem(name, type)).toBeNull();
  });

  it("refuses a name of another type, without an extension, or with hidden characters or a path", () => {
    const refused: [string, string, RegExp][] = [
      ["report.html", ContentType.TEXT_PLAIN, /must end in \.txt, \.text, \.log, \.csv, \.md/],
      ["setup.exe", ContentType.TEXT_PLAIN, /does not fit ContentType text\/plain/],
      ["invoice.pdf\u202Eexe.html", ContentType.TEXT_PLAIN, /bidirectional/],
      ["invoice\u2066.pdf", ContentType.APPLICATION_PDF, /bidirectional/],
      ["in\u200Bvoice.pdf", ContentType.APPLICATION_PDF, /invisible/],
      ["line\nbreak.pdf", ContentType.APPLICATION_PDF, /control/],
      ["../../etc/passwd.txt", ContentType.TEXT_PLAIN, /path/],
      ["README", ContentType.TEXT_PLAIN, /must end in/],
      [".txt", ContentType.TEXT_PLAIN, /must end in/],
      ["photo.png", ContentType.IMAGE_JPG, /must end in \.jpg/],
    ];
    for (const [name, type, why] of refused) expect(attachmentNameProblem(name, type)).toMatch(why);
  });
});
