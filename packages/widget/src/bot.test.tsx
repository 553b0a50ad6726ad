import { ContentType } from "@chat-widget/protocol";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { botMessage, customerMessage, listPicker } from "./test-support/fakes.js";
import { advance, flush, renderWidget } from "./test-support/render.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const typingDots = () => screen.queryByRole("status", { name: "Typing" });

describe("bot", () => {
  it("bot plain or markdown system message (display name BOT): bot loading shows for 3 s", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("start-menu", { ContentType: ContentType.TEXT_MARKDOWN }));
    expect(typingDots()).toBeTruthy();
    await advance(2999);
    expect(typingDots()).toBeTruthy();
    await advance(1);
    expect(typingDots()).toBeNull();
  });

  it("otherwise bot active is set and the content is sent back automatically as a customer message", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("start-menu"));
    expect(w.adapter.last.sent).toEqual([
      { content: "start-menu", contentType: ContentType.TEXT_PLAIN },
    ]);
    expect(w.textbox().disabled).toBe(true);
    expect(w.textbox().placeholder).toBe("Select an option from above");
  });

  it("if its content equals the word 'input', bot loading stops and nothing is sent", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    expect(typingDots()).toBeTruthy();
    await w.receive(botMessage("input"));
    expect(typingDots()).toBeNull();
    expect(w.adapter.last.sent.map((s) => s.content)).toEqual(["menu"]);
  });

  it("bot echoes hidden: the automatic echo is not shown as a visitor message, whichever path delivers it", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    // The server's copy of the echo, before and after sendMessage's answer.
    await w.receive(customerMessage("menu", { Id: "sent-1" }));
    await w.receive(botMessage("again"));
    await flush();
    await w.receive(customerMessage("again"));
    expect(screen.queryByText("menu")).toBeNull();
    expect(screen.queryByText("again")).toBeNull();
  });

  it("bot interactive message: bot loading off and the message is added to the transcript", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await advance(1000);
    await w.receive(listPicker("How can we help?", ["Order status", "Returns"]));
    expect(typingDots()).toBeNull();
    expect(screen.getByText("How can we help?")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Order status" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Returns" })).toBeTruthy();
  });

  it("clicking a bot option (only while bot active) sends its title as a customer message, adds it to the transcript, then bot active turns off", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("How can we help?", ["Order status", "Returns"]));
    fireEvent.click(screen.getByRole("button", { name: "Returns" }));
    await flush();
    expect(w.adapter.last.sent.map((s) => s.content)).toEqual(["menu", "Returns"]);
    const shown = screen.getAllByText("Returns").find((el) => el.classList.contains("message"));
    expect(shown?.className).toBe("message outgoing");
    expect(
      (screen.getByRole("button", { name: "Order status" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(w.textbox().disabled).toBe(false);
    expect(w.textbox().placeholder).toBe("Type here...");
  });

  it("the bot's next choice, come before the visitor's choice is acknowledged, stays clickable", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("How can we help?", ["Returns"]));
    let acknowledge = () => {};
    w.adapter.last.sendGate = new Promise((resolve) => (acknowledge = resolve));
    fireEvent.click(screen.getByRole("button", { name: "Returns" }));
    await flush();
    // The flow answers over the websocket before the send's HTTP answer arrives.
    await w.receive(botMessage("more"));
    await w.receive(listPicker("Anything else?", ["No, thanks"]));
    acknowledge();
    await flush();
    expect((screen.getByRole("button", { name: "No, thanks" }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("a clicked bot option is shown once, as the visitor's message", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("Pick", ["Returns"]));
    fireEvent.click(screen.getByRole("button", { name: "Returns" }));
    await flush();
    await w.receive(customerMessage("Returns", { Id: "sent-2" }));
    expect(
      screen.getAllByText("Returns").filter((el) => el.classList.contains("message")),
    ).toHaveLength(1);
  });

  it("bot options are not clickable while the bot is not active", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(listPicker("Pick", ["Returns"]));
    const option = screen.getByRole("button", { name: "Returns" }) as HTMLButtonElement;
    expect(option.disabled).toBe(true);
    fireEvent.click(option);
    await flush();
    expect(w.adapter.last.sent).toEqual([]);
  });
});

describe("bot options of earlier list pickers", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("only the latest list picker's options are clickable while the bot is active", async () => {
    const w = renderWidget();
    await w.open();
    await w.receive(botMessage("menu"));
    await w.receive(listPicker("First", ["A"]));
    await w.receive(botMessage("menu again"));
    await w.receive(listPicker("Second", ["B"]));
    expect((screen.getByRole("button", { name: "A" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "B" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
