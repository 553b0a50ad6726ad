/** Interactive message templates (docs/protocol.md §6). */

export interface InteractiveElement {
  title: string;
  subtitle?: string;
  imageType?: "URL";
  imageData?: string;
  imageDescription?: string;
  type?: "hyperlink";
  url?: string;
  actionDetail?: "SHOW_MORE" | "PREVIOUS_OPTIONS";
}

export interface ListPickerContent {
  title: string;
  subtitle?: string;
  imageType?: "URL";
  imageData?: string;
  imageDescription?: string;
  elements: InteractiveElement[];
  listId?: string;
  referenceId?: string;
  preIndex?: number;
  nextIndex?: number;
}

export interface ReplyMessage {
  title: string;
  subtitle?: string;
}

export interface ListPickerTemplate {
  templateType: "ListPicker" | "Panel" | "QuickReply";
  version: "1.0";
  data: { content: ListPickerContent; replyMessage?: ReplyMessage };
}

export const LIST_PICKER_MAX_ELEMENTS = 6;

/** Parse an interactive message's Content into a list-style template, or null when it is not one. */
export function parseListPicker(content: string | undefined): ListPickerTemplate | null {
  if (content === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const t = value as Partial<ListPickerTemplate>;
  if (
    t.templateType !== "ListPicker" &&
    t.templateType !== "Panel" &&
    t.templateType !== "QuickReply"
  )
    return null;
  const c = t.data?.content;
  if (!c || typeof c.title !== "string" || !Array.isArray(c.elements)) return null;
  if (!c.elements.every((e) => typeof e === "object" && e !== null && typeof e.title === "string"))
    return null;
  return t as ListPickerTemplate;
}
