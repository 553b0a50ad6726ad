import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newChatState } from "../state/chat-state.js";
import { chatInfo } from "../test-support/items.js";
import { ChatTabs } from "./ChatTabs.js";

afterEach(cleanup);

const chats = () => [
  { ...newChatState(chatInfo("c1", { CustomerName: "Ada" })), unread: 0 },
  { ...newChatState(chatInfo("c2", { CustomerName: "Bob" })), unread: 3 },
  { ...newChatState(chatInfo("c3", { CustomerName: "Cy" })), ended: true },
];

describe("the chat tabs", () => {
  it("show each chat with its unread count and the open chats out of 10", () => {
    render(<ChatTabs chats={chats()} selected="c1" select={() => {}} />);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      expect.stringContaining("Ada"),
      expect.stringContaining("Bob"),
      expect.stringContaining("Cy"),
    ]);
    expect(screen.getByLabelText("3 unread").textContent).toBe("3");
    expect(screen.queryByLabelText("0 unread")).toBeNull();
    expect(screen.getByRole("heading").textContent).toContain("(2/10)");
    expect(screen.getByRole("tab", { name: /Ada/ }).getAttribute("aria-selected")).toBe("true");
  });

  it("a typing customer is announced by text in the tab (a plain span's aria-label is not read)", () => {
    const typing = [
      { ...newChatState(chatInfo("c1", { CustomerName: "Ada" })), customerTyping: true },
    ];
    render(<ChatTabs chats={typing} selected="c1" select={() => {}} />);
    const tab = screen.getByRole("tab", { name: /Ada/ });
    expect(within(tab).getByText("typing").className).toBe("sr-only");
  });

  it("are keyboard-usable: arrow keys, Home and End move between chats", () => {
    const select = vi.fn();
    render(<ChatTabs chats={chats()} selected="c1" select={select} />);
    const first = screen.getByRole("tab", { name: /Ada/ });
    fireEvent.keyDown(first, { key: "ArrowDown" });
    expect(select).toHaveBeenLastCalledWith("c2");
    fireEvent.keyDown(first, { key: "ArrowUp" });
    expect(select).toHaveBeenLastCalledWith("c3");
    fireEvent.keyDown(first, { key: "End" });
    expect(select).toHaveBeenLastCalledWith("c3");
    fireEvent.keyDown(first, { key: "Home" });
    expect(select).toHaveBeenLastCalledWith("c1");
  });
});
