import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "./Composer.js";

afterEach(cleanup);

function setup(disabled = false, sent = true) {
  const send = vi.fn(async (_text: string) => sent);
  const typing = vi.fn();
  const attach = vi.fn();
  render(<Composer disabled={disabled} send={send} typing={typing} attach={attach} />);
  const box = screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
  return { send, typing, attach, box };
}

describe("the composer", () => {
  it("Enter without shift sends and clears the box", async () => {
    const { send, box } = setup();
    fireEvent.change(box, { target: { value: "  Hello **there** " } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(send).toHaveBeenCalledWith("Hello **there**");
    expect(box.value).toBe("");
  });

  it("Shift+Enter does not send (it adds a newline)", () => {
    const { send, box } = setup();
    fireEvent.change(box, { target: { value: "line one" } });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(send).not.toHaveBeenCalled();
    expect(box.value).toBe("line one");
  });

  it("an empty or blank message is not sent", () => {
    const { send, box } = setup();
    fireEvent.change(box, { target: { value: "   \n " } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(send).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Send" })).toHaveProperty("disabled", true);
  });

  it("typed text reports typing", () => {
    const { typing, box } = setup();
    fireEvent.change(box, { target: { value: "H" } });
    expect(typing).toHaveBeenCalledTimes(1);
  });

  it("a message that failed to send comes back into the box", async () => {
    const { box } = setup(false, false);
    fireEvent.change(box, { target: { value: "keep me" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await vi.waitFor(() => expect(box.value).toBe("keep me"));
  });

  it("counts from 924 characters; past 1,024 it says so and keeps the text instead of sending it", () => {
    const { send, box } = setup();
    fireEvent.change(box, { target: { value: "x".repeat(923) } });
    expect(screen.queryByRole("status")).toBeNull();
    fireEvent.change(box, { target: { value: "x".repeat(1024) } });
    expect(screen.getByRole("status").textContent).toBe("1024/1024 characters");
    const long = "x".repeat(1500);
    fireEvent.change(box, { target: { value: long } });
    expect(box.value).toBe(long); // pasted in full, never cut
    expect(screen.getByRole("status").textContent).toBe("Too long to send · 1500/1024 characters");
    expect(screen.getByRole("button", { name: "Send" })).toHaveProperty("disabled", true);
    fireEvent.keyDown(box, { key: "Enter" });
    expect(send).not.toHaveBeenCalled();
    expect(box.value).toBe(long);
  });

  it("is disabled once the chat has ended", () => {
    const { box } = setup(true);
    expect(box.disabled).toBe(true);
    expect(screen.getByRole("button", { name: "Attach file" })).toHaveProperty("disabled", true);
  });

  it("a chosen file is attached", () => {
    const { attach } = setup();
    const input = screen.getByLabelText("Attachment file") as HTMLInputElement;
    const file = new File(["a,b"], "order.csv", { type: "text/csv" });
    fireEvent.change(input, { target: { files: [file] } });
    expect(attach).toHaveBeenCalledWith(file);
  });
});
