import { ContentType, ItemType } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newChatState, withItems, withOutgoing, withReceipt } from "../state/chat-state.js";
import {
  advisorMessage,
  botMessage,
  chatInfo,
  customerMessage,
  event,
} from "../test-support/items.js";
import { Transcript } from "./Transcript.js";

afterEach(cleanup);

const picker = JSON.stringify({
  templateType: "ListPicker",
  version: "1.0",
  data: {
    content: {
      title: "How can we help?",
      elements: [{ title: "Returns" }, { title: "Talk to an advisor" }],
    },
  },
});

describe("the transcript", () => {
  it("shows customer, bot and system items, each once", () => {
    let chat = newChatState(chatInfo());
    const items = [
      event("j1", ContentType.PARTICIPANT_JOINED, "CUSTOMER", "Customer"),
      { ...botMessage("b1", picker), ContentType: ContentType.INTERACTIVE_MESSAGE },
      customerMessage("c1", "Talk to an advisor"),
      event("j2", ContentType.PARTICIPANT_JOINED, "AGENT", "Sam"),
    ];
    chat = withItems(withItems(chat, items, true), items, true);
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(screen.getAllByText("Alex Morgan has joined the chat")).toHaveLength(1);
    expect(screen.getAllByText("How can we help?")).toHaveLength(1);
    expect(screen.getByText("Returns")).toBeTruthy();
    expect(screen.getAllByText("Talk to an advisor")).toHaveLength(2);
    expect(screen.getAllByText("Sam has joined the chat")).toHaveLength(1);
  });

  it("shows a visitor's carousel choice as the option chosen; other JSON as written", () => {
    const choice = JSON.stringify({
      templateIdentifier: "home",
      listTitle: "Home",
      selectionText: "Linen throw",
    });
    const chat = withItems(
      newChatState(chatInfo()),
      [customerMessage("c1", choice), customerMessage("c2", '{"selectionText":"x"}')],
      true,
    );
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(screen.getByText("Linen throw")).toBeTruthy();
    expect(screen.queryByText(/templateIdentifier/)).toBeNull();
    expect(screen.getByText('{"selectionText":"x"}')).toBeTruthy();
  });

  it("marks the advisor's messages Sent, Delivered or Read", () => {
    let chat = withItems(
      newChatState(chatInfo()),
      [advisorMessage("a1", "one"), advisorMessage("a2", "two"), advisorMessage("a3", "three")],
      true,
    );
    chat = withReceipt(withReceipt(chat, "a2", "delivered"), "a3", "read");
    const { container } = render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    const marks = [...container.querySelectorAll(".receipt")].map((m) => m.textContent);
    expect(marks).toEqual(["Sent", "Delivered", "Read"]);
  });

  it("renders markdown but never raw HTML or unsafe links", () => {
    const chat = withItems(
      newChatState(chatInfo()),
      [
        {
          ...customerMessage("x", '<img src=x onerror="alert(1)"> plain'),
          ContentType: ContentType.TEXT_PLAIN,
        },
        {
          ...botMessage("y", "**bold** [bad](javascript:alert(1)) [good](https://example.com)"),
          ContentType: ContentType.TEXT_MARKDOWN,
        },
      ],
      true,
    );
    const { container } = render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByText(/<img src=x/)).toBeTruthy();
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    const hrefs = [...container.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    // The unsafe link keeps its text but loses its href.
    expect(hrefs).toEqual([null, "https://example.com"]);
  });

  it("offers attachments for download", () => {
    const attachment = {
      ...customerMessage("f", ""),
      Type: ItemType.ATTACHMENT,
      ContentType: undefined,
      Content: undefined,
      Attachments: [
        {
          AttachmentId: "att-1",
          AttachmentName: "receipt.pdf",
          ContentType: "application/pdf",
          Status: "APPROVED" as const,
        },
      ],
    };
    const download = vi.fn();
    render(
      <Transcript
        chat={withItems(newChatState(chatInfo()), [attachment], true)}
        download={download}
        retry={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Download receipt.pdf" }));
    expect(download).toHaveBeenCalledWith("att-1", "receipt.pdf");
  });

  it("is a log, so screen readers announce new messages", () => {
    render(<Transcript chat={newChatState(chatInfo())} download={() => {}} retry={() => {}} />);
    expect(screen.getByRole("log", { name: "Transcript" })).toBeTruthy();
  });

  it("shows the customer's typing", () => {
    const chat = { ...newChatState(chatInfo()), customerTyping: true };
    render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(screen.getByRole("status").textContent).toBe("Alex Morgan is typing…");
  });
});

describe("the advisor's messages not stored yet", () => {
  it("show Sending… below the transcript, then Not sent with a Retry that names the message", () => {
    const retry = vi.fn();
    let chat = withItems(newChatState(chatInfo()), [customerMessage("c1", "Hello")], true);
    chat = withOutgoing(chat, { clientToken: "t1", content: "**On** its way", state: "sending" });
    chat = withOutgoing(chat, { clientToken: "t2", content: "Second", state: "failed" });
    const { container } = render(<Transcript chat={chat} download={() => {}} retry={retry} />);
    const rows = [...container.querySelectorAll("li.message")].map((li) => li.textContent);
    expect(rows).toEqual([
      expect.stringContaining("Hello"),
      expect.stringMatching(/On its way.*Sending…/),
      expect.stringMatching(/Second.*Not sent/),
    ]);
    expect(container.querySelector("li.sending strong")?.textContent).toBe("On");
    expect(screen.getAllByRole("button", { name: "Retry" })).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(retry).toHaveBeenCalledWith("t2");
  });
});

describe("images in chat content", () => {
  it("are never loaded: a markdown image shows as a link to it, named by its alt text", () => {
    const chat = withItems(
      newChatState(chatInfo()),
      [
        {
          ...customerMessage(
            "x",
            "see ![tracking pixel](https://tracker.example/p.png) and ![](javascript:alert(1))",
          ),
          ContentType: ContentType.TEXT_MARKDOWN,
        },
      ],
      true,
    );
    const { container } = render(<Transcript chat={chat} download={() => {}} retry={() => {}} />);
    expect(container.querySelector("img")).toBeNull();
    const link = screen.getByRole("link", { name: "Image: tracking pixel" });
    expect(link.getAttribute("href")).toBe("https://tracker.example/p.png");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByText("Image: untitled").tagName).toBe("SPAN");
  });
});
