import { ContentType, ItemType } from "@chat-widget/protocol";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { attachmentProblem } from "./state/attachments.js";
import { item } from "./test-support/fakes.js";
import { flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const pdf = () => new File(["%PDF"], "receipt.pdf", { type: ContentType.APPLICATION_PDF });

describe("attachments in the widget", () => {
  it("the visitor attaches a file with the button and sees upload progress", async () => {
    const w = renderWidget();
    await w.open();
    const input = w.view.container.querySelector<HTMLInputElement>("input[type=file]")!;
    fireEvent.change(input, { target: { files: [pdf()] } });
    await flush();
    expect(w.adapter.last.attachments.map((f) => f.name)).toEqual(["receipt.pdf"]);
    const progress = screen.getByRole("progressbar", {
      name: "Uploading receipt.pdf",
    }) as HTMLProgressElement;
    expect(progress.hasAttribute("value")).toBe(false);
    act(() => w.adapter.last.progress?.(0.5));
    expect(progress.getAttribute("value")).toBe("0.5");
    await act(async () => w.adapter.last.finishUpload());
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
    expect(w.adapter.last.attachments.map((f) => f.name)).toEqual(["receipt.pdf"]);
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
    expect(w.adapter.last.attachments).toEqual([]);
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
    await w.receive(
      item({
        Type: ItemType.ATTACHMENT,
        ContentType: undefined,
        ParticipantRole: "AGENT",
        DisplayName: "Sam",
        Attachments: [
          {
            AttachmentId: "att-9",
            AttachmentName: "label.png",
            ContentType: "image/png",
            Status: "APPROVED",
          },
        ],
      }),
    );
    const link = screen.getByRole("button", { name: "label.png" });
    expect(link.closest(".message")?.className).toBe("message incoming agent");
    fireEvent.click(link);
    await flush();
    expect(download).toHaveBeenCalledWith("att-9", expect.any(Function));
    expect(clicked).toHaveBeenCalledTimes(1);
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
    act(() => w.adapter.last.progress?.(0.25));
    expect(row.textContent).toBe("Uploading receipt.pdf 25%");
    expect(bar.getAttribute("value")).toBe("0.25");
    act(() => w.adapter.last.progress?.(0.874));
    expect(row.textContent).toBe("Uploading receipt.pdf 87%");
    act(() => w.adapter.last.progress?.(1));
    expect(row.textContent).toBe("Uploading receipt.pdf 100%");
    await act(async () => w.adapter.last.finishUpload());
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
    await w.receive(
      item({
        Type: ItemType.ATTACHMENT,
        ContentType: undefined,
        ParticipantRole: "AGENT",
        DisplayName: "Sam",
        Attachments: [
          {
            AttachmentId: "att-7",
            AttachmentName: "plan.pdf",
            ContentType: ContentType.APPLICATION_PDF,
            Status: "APPROVED",
          },
        ],
      }),
    );
    const link = screen.getByRole("button", { name: "plan.pdf" });
    fireEvent.click(link);
    await flush();
    const bar = screen.getByRole("progressbar", { name: "Downloading plan.pdf" });
    expect(bar.getAttribute("value")).toBe("0");
    expect((link as HTMLButtonElement).disabled).toBe(true);
    act(() => w.adapter.last.downloadProgress?.(0.5));
    expect(bar.getAttribute("value")).toBe("0.5");
    expect(link.parentElement!.textContent).toContain("plan.pdf 50%");
    await act(async () => w.adapter.last.finishDownload());
    await flush();
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect((link as HTMLButtonElement).disabled).toBe(false);
    expect(clicked).toHaveBeenCalledTimes(1);
  });
});
