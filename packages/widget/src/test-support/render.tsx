/** Render the widget with fakes and drive it with fake timers. */
import { act, fireEvent, render, screen } from "@testing-library/react";
import type { Item } from "@chat-widget/protocol";
import { vi } from "vitest";
import { ChatWidget } from "../ChatWidget.js";
import type { WidgetDeps } from "../ChatWidget.js";
import { makeDeps } from "./fakes.js";

/** Let pending promises settle (fake timers stay where they are). */
export async function flush(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

export function renderWidget(options: { jwt?: string; deps?: Partial<WidgetDeps> } = {}) {
  const h = makeDeps(options.deps);
  const view = render(<ChatWidget jwt={options.jwt} deps={h.deps} />);
  const launcher = () => screen.getByRole("button", { name: /^Open chat/ });
  const receive = async (item: Item) => {
    act(() => h.adapter.last.handlers.onMessage(item));
    await flush();
  };
  const typing = async (item: Item) => {
    act(() => h.adapter.last.handlers.onTyping(item));
    await flush();
  };
  const open = async () => {
    fireEvent.click(launcher());
    await flush();
  };
  /** The close icon, then "End chat" in its confirmation (issue 24). */
  const end = () => {
    fireEvent.click(screen.getByTitle("Close chat window"));
    fireEvent.click(screen.getByRole("button", { name: "End chat" }));
  };
  const textbox = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
  return { ...h, view, launcher, receive, typing, open, end, textbox };
}
