import { ContentType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClientAdapter } from "./chat/client-adapter.js";
import { readSettings } from "./settings.js";
import { attachmentProblem } from "./state/attachments.js";
import { SERVICE, fakeAttachmentService } from "./test-support/attachment-service.js";
import { fakeChatSession } from "./test-support/chat-session.js";
import { advisorFile, agentMessage, fakeLogger } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const pdf = () => new File(["%PDF"], "receipt.pdf", { type: ContentType.APPLICATION_PDF });
const MB = 1024 * 1024;

/** The file picker of the open window. */
const picker = (w: ReturnType<typeof renderWidget>) =>
  w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
const pick = async (w: ReturnType<typeof renderWidget>, file: File) => {
  fireEvent.change(picker(w), { target: { files: [file] } });
  await flush();
};
const notice = () => screen.queryByRole("alert");

/** The docs/product.md §3 kinds as their type names: pdf, jpeg, png, doc, xls, ppt, csv, wav (three names). */
const ACCEPTED = [
  "application/pdf",
  "image/jpeg",
  "image/png",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "text/csv",
  "audio/wav",
  "audio/x-wav",
  "audio/vnd.wave",
];

describe("attachments accepted: pdf, jpeg, png, doc, xls, ppt, csv, wav (docs/product.md §3)", () => {
  it("each accepted kind passes, up to 20 MB; docx, mp4, json and exe are refused", () => {
    for (const type of ACCEPTED)
      expect(attachmentProblem({ type, size: 20 * MB }), type).toBeNull();
    for (const type of [
      ContentType.APPLICATION_DOCX,
      ContentType.VIDEO_MP4,
      ContentType.APPLICATION_JSON,
      "application/x-msdownload",
      ContentType.APPLICATION_XLSX,
      ContentType.APPLICATION_PPTX,
      ContentType.IMAGE_HEIC,
      ContentType.VIDEO_QUICKTIME,
      ContentType.TEXT_RTF,
      ContentType.TEXT_PLAIN,
      "",
    ])
      expect(attachmentProblem({ type, size: 10 }), type).toBe("UNSUPPORTED_FILE_TYPE");
    expect(attachmentProblem({ type: "application/pdf", size: 20 * MB + 1 })).toBe(
      "FILE_TOO_LARGE",
    );
  });

  it("the file picker offers exactly those kinds", async () => {
    const w = renderWidget();
    await w.open();
    expect(picker(w).accept.split(",").sort()).toEqual([...ACCEPTED].sort());
  });
});

describe("a file that cannot be sent: 'This file can't be sent' shows for 5 s; the chat continues", () => {
  it("a refused type shows the notice with its reason for 5 s, and nothing is uploaded", async () => {
    const w = renderWidget();
    await w.open();
    await pick(w, new File(["{}"], "data.json", { type: ContentType.APPLICATION_JSON }));
    expect(w.adapter.last.uploads).toEqual([]);
    expect(notice()?.textContent).toBe("This file can't be sentUnsupported file type");
    await advance(4999);
    expect(notice()).not.toBeNull();
    await advance(1);
    expect(notice()).toBeNull();
    expect(w.textbox().disabled).toBe(false);
  });

  it("a file larger than 20 MB shows the notice with 'File is larger than 20 MB'", async () => {
    const w = renderWidget();
    await w.open();
    const big = pdf();
    Object.defineProperty(big, "size", { value: 20 * MB + 1 });
    await pick(w, big);
    expect(w.adapter.last.uploads).toEqual([]);
    expect(notice()?.querySelector(".reason")?.textContent).toBe("File is larger than 20 MB");
  });

  it("a failed upload shows the notice; the next message sent clears it", async () => {
    const w = renderWidget();
    await w.open();
    w.adapter.last.sendAttachment = vi.fn(async () => {
      throw new Error("403");
    });
    await pick(w, pdf());
    expect(notice()?.textContent).toContain("This file can't be sent");
    expect(screen.queryByRole("progressbar")).toBeNull();
    await advance(1000);
    fireEvent.change(w.textbox(), { target: { value: "Never mind" } });
    fireEvent.keyDown(w.textbox(), { key: "Enter" });
    await flush();
    expect(w.adapter.last.sent.map((m) => m.content)).toEqual(["Never mind"]);
    expect(notice()).toBeNull();
  });

  it("a file sent after a refused one clears the notice at once", async () => {
    const w = renderWidget();
    await w.open();
    await pick(w, new File(["MZ"], "tool.exe", { type: "application/x-msdownload" }));
    expect(notice()).not.toBeNull();
    await pick(w, pdf());
    expect(notice()).not.toBeNull();
    await act(async () => w.adapter.last.uploads[0]!.finish());
    await flush();
    expect(notice()).toBeNull();
    await w.receive(agentMessage("Got it"));
    expect(screen.getByText("Got it")).toBeTruthy();
  });
});

describe("attachments in the widget", () => {
  it("the visitor attaches a file with the button and sees upload progress", async () => {
    const w = renderWidget();
    await w.open();
    const input = w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
    fireEvent.change(input, { target: { files: [pdf()] } });
    await flush();
    expect(w.adapter.last.uploads.map((u) => u.name)).toEqual(["receipt.pdf"]);
    const progress = screen.getByRole("progressbar", {
      name: "Uploading receipt.pdf",
    }) as HTMLProgressElement;
    expect(progress.hasAttribute("value")).toBe(false);
    act(() => w.adapter.last.uploads[0]!.progress(0.5));
    expect(progress.getAttribute("value")).toBe("0.5");
    await act(async () => w.adapter.last.uploads[0]!.finish());
    await flush();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("the visitor drops a file on the window to send it", async () => {
    const w = renderWidget();
    await w.open();
    const dialog = screen.getByRole("dialog");
    const dataTransfer = { types: ["Files"], files: [pdf()] };
    fireEvent.dragOver(dialog, { dataTransfer });
    expect(dialog.className).toContain("dragging");
    fireEvent.drop(dialog, { dataTransfer });
    await flush();
    expect(w.adapter.last.uploads.map((u) => u.name)).toEqual(["receipt.pdf"]);
  });

  it("only the accepted types up to 20 MB are sent", async () => {
    expect(
      attachmentProblem({ type: ContentType.APPLICATION_PDF, size: 20 * 1024 * 1024 }),
    ).toBeNull();
    expect(
      attachmentProblem({ type: ContentType.APPLICATION_PDF, size: 20 * 1024 * 1024 + 1 }),
    ).not.toBeNull();
    expect(attachmentProblem({ type: "application/x-msdownload", size: 10 })).not.toBeNull();
    const w = renderWidget();
    await w.open();
    const input = w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
    fireEvent.change(input, {
      target: { files: [new File(["MZ"], "tool.exe", { type: "application/x-msdownload" })] },
    });
    await flush();
    expect(w.adapter.last.uploads).toEqual([]);
    expect(w.logger.error).toHaveBeenCalledWith(
      "Unable to send message",
      expect.stringContaining("Unsupported"),
    );
  });

  it("attachments sent by the advisor are shown and can be downloaded", async () => {
    const w = renderWidget();
    await w.open();
    const download = vi.spyOn(w.adapter.last, "downloadAttachment");
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await w.receive(advisorFile("att-9", "labels.csv", "text/csv"));
    const link = screen.getByRole("button", { name: "labels.csv" });
    expect(link.closest(".message")?.className).toBe("message incoming agent");
    fireEvent.click(link);
    await flush();
    expect(download).toHaveBeenCalledWith("att-9", expect.any(Function));
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it("a JPEG or PNG shows a thumbnail, fetched once a chat (saving it, or minimising and reopening, fetches nothing more); its object URL goes with the window", async () => {
    const w = renderWidget();
    await w.open();
    const download = vi.spyOn(w.adapter.last, "downloadAttachment");
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => `blob:${created.push(blob)}`);
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    clicked.mockClear();
    await w.receive(advisorFile("att-1", "photo.jpg", "image/jpeg"));
    await flush();
    const thumbnail = () => w.view.container.querySelector<HTMLImageElement>("img.thumbnail");
    expect(thumbnail()!.getAttribute("src")).toBe("blob:1");
    // The file's name is the button beside it: the image adds no second name.
    expect(thumbnail()!.alt).toBe("");
    expect(created[0]!.type).toBe("image/jpeg");
    expect(download).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "photo.jpg" }));
    await flush();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(download).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Minimise chat window" }));
    await flush();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith("blob:1");
    await w.open();
    expect(thumbnail()!.getAttribute("src")).toBe("blob:3");
    expect(download).toHaveBeenCalledTimes(1);
  });

  it("a thumbnail whose fetch failed is fetched again when the window shows it next", async () => {
    const w = renderWidget();
    await w.open();
    const download = vi.spyOn(w.adapter.last, "downloadAttachment");
    download.mockRejectedValueOnce(new Error("offline"));
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    await w.receive(advisorFile("att-8", "photo.png", "image/png"));
    await flush();
    expect(w.view.container.querySelector("img.thumbnail")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Minimise chat window" }));
    await w.open();
    expect(download).toHaveBeenCalledTimes(2);
    expect(w.view.container.querySelector("img.thumbnail")).not.toBeNull();
  });

  it("no thumbnail for other types (SVG, PDF), for a file not yet approved, or for an image over 5 MB", async () => {
    const w = renderWidget();
    await w.open();
    const download = vi.spyOn(w.adapter.last, "downloadAttachment");
    URL.createObjectURL = vi.fn(() => "blob:x");
    await w.receive(advisorFile("att-2", "logo.svg", "image/svg+xml"));
    await w.receive(advisorFile("att-3", "plan.pdf", ContentType.APPLICATION_PDF));
    await w.receive(advisorFile("att-4", "scan.png", "image/png", "IN_PROGRESS"));
    await flush();
    expect(download).not.toHaveBeenCalled();
    download.mockResolvedValueOnce(new Blob([new Uint8Array(5 * MB + 1)]));
    await w.receive(advisorFile("att-5", "huge.png", "image/png"));
    await flush();
    expect(download).toHaveBeenCalledWith("att-5", undefined);
    expect(w.view.container.querySelector("img")).toBeNull();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it("the visitor sees upload progress as a bar and a percentage", async () => {
    const w = renderWidget();
    await w.open();
    const input = w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
    fireEvent.change(input, { target: { files: [pdf()] } });
    await flush();
    const bar = screen.getByRole("progressbar", { name: "Uploading receipt.pdf" });
    const row = bar.parentElement!;
    expect(row.textContent).toBe("Uploading receipt.pdf");
    act(() => w.adapter.last.uploads[0]!.progress(0.25));
    expect(row.textContent).toBe("Uploading receipt.pdf 25%");
    expect(bar.getAttribute("value")).toBe("0.25");
    act(() => w.adapter.last.uploads[0]!.progress(0.874));
    expect(row.textContent).toBe("Uploading receipt.pdf 87%");
    act(() => w.adapter.last.uploads[0]!.progress(1));
    expect(row.textContent).toBe("Uploading receipt.pdf 100%");
    await act(async () => w.adapter.last.uploads[0]!.finish());
    await flush();
    expect(screen.queryByText(/Uploading/)).toBeNull();
  });

  it("the visitor sees a download's progress until the file is saved", async () => {
    const w = renderWidget();
    await w.open();
    w.adapter.last.holdDownloads = true;
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    clicked.mockClear();
    await w.receive(advisorFile("att-7", "plan.pdf", ContentType.APPLICATION_PDF));
    const link = screen.getByRole("button", { name: "plan.pdf" });
    fireEvent.click(link);
    await flush();
    const bar = screen.getByRole("progressbar", { name: "Downloading plan.pdf" });
    expect(bar.getAttribute("value")).toBe("0");
    expect((link as HTMLButtonElement).disabled).toBe(true);
    act(() => w.adapter.last.downloads[0]!.progress(0.5));
    expect(bar.getAttribute("value")).toBe("0.5");
    expect(link.parentElement!.textContent).toContain("plan.pdf 50%");
    await act(async () => w.adapter.last.downloads[0]!.finish());
    await flush();
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect((link as HTMLButtonElement).disabled).toBe(false);
    expect(clicked).toHaveBeenCalledTimes(1);
  });
});

/** The widget over the real adapter, whose chat client talks to a fake attachment service. */
async function renderWithService() {
  const service = fakeAttachmentService();
  const client = fakeChatSession();
  const settings = readSettings({ src: `${SERVICE}/widget/chat-widget.js`, dataset: {} }, SERVICE);
  const adapter = createClientAdapter(client.ChatSession, settings, fakeLogger(), {
    progressFetch: service.progressFetch,
  });
  const w = renderWidget({ deps: { adapter } });
  await w.open();
  const attach = async (name: string) => {
    const input = w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
    const file = new File(["x"], name, { type: ContentType.APPLICATION_PDF });
    fireEvent.change(input, { target: { files: [file] } });
    await flush();
  };
  const row = (name: string) =>
    screen.getByRole("progressbar", { name: `Uploading ${name}` }).parentElement!.textContent;
  const step = async (move: () => void) => {
    act(move);
    await flush();
  };
  return { ...w, service, client, attach, row, step };
}

describe("overlapping transfers: each shows its own progress", () => {
  it("two uploads at once: each row shows its own file's progress, however their progress events interleave", async () => {
    const w = await renderWithService();
    await w.attach("a.pdf");
    await w.attach("b.pdf");
    expect(w.service.uploading()).toEqual(["a.pdf", "b.pdf"]);
    const a = w.service.upload("a.pdf");
    const b = w.service.upload("b.pdf");
    await w.step(() => a.sent(10, 100));
    await w.step(() => b.sent(60, 100));
    await w.step(() => a.sent(30, 100));
    expect(w.row("a.pdf")).toBe("Uploading a.pdf 30%");
    expect(w.row("b.pdf")).toBe("Uploading b.pdf 60%");
    await w.step(() => b.finish());
    expect(screen.queryByRole("progressbar", { name: "Uploading b.pdf" })).toBeNull();
    await w.step(() => a.sent(90, 100));
    expect(w.row("a.pdf")).toBe("Uploading a.pdf 90%");
    await w.step(() => a.finish());
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("an upload and a download at once: the download's progress shows on its attachment, the upload's on its row", async () => {
    const w = await renderWithService();
    URL.createObjectURL = vi.fn(() => "blob:x");
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    act(() =>
      w.client.emit("message", advisorFile("att-7", "plan.pdf", ContentType.APPLICATION_PDF)),
    );
    await flush();
    const file = w.service.download("att-7", 40);
    const link = screen.getByRole("button", { name: "plan.pdf" });
    fireEvent.click(link);
    await w.attach("a.pdf");
    expect(w.service.downloading()).toEqual(["att-7"]);
    const upload = w.service.upload("a.pdf");
    const bar = screen.getByRole("progressbar", { name: "Downloading plan.pdf" });
    await w.step(() => upload.sent(50, 100));
    await w.step(() => file.received(10));
    await w.step(() => upload.sent(75, 100));
    expect(bar.getAttribute("value")).toBe("0.25");
    expect(link.parentElement!.textContent).toContain("plan.pdf 25%");
    expect(w.row("a.pdf")).toBe("Uploading a.pdf 75%");
    await w.step(() => file.received(30));
    await w.step(() => file.end());
    expect(screen.queryByRole("progressbar", { name: "Downloading plan.pdf" })).toBeNull();
    expect(w.row("a.pdf")).toBe("Uploading a.pdf 75%");
    await w.step(() => upload.finish());
    expect(screen.queryByRole("progressbar")).toBeNull();
  });
});
