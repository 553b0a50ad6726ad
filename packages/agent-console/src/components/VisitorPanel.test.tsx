import type { VisitorResponse } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import type { VisitorReads } from "./visitor-reads.js";
import { VISITOR_LOADING, VISITOR_UNKNOWN, VisitorPanel } from "./VisitorPanel.js";

afterEach(cleanup);

/** The panel's reads: `visitor` as given, no earlier conversations. */
const readsOf = (visitor: VisitorReads["visitor"]): VisitorReads => ({
  visitor,
  earlier: async () => ({ Conversations: [] }),
  transcript: async () => ({ Items: [] }),
});

const visitor = (extra: Partial<VisitorResponse> = {}): VisitorResponse => ({
  ContactId: "c1",
  Name: "Ada",
  Attributes: {},
  AttributeSources: {},
  StartedAt: "2026-01-16T09:30:00.000Z",
  ...extra,
});

/** The value shown for a label of the panel's identity list. */
const value = (label: string) =>
  screen.getByText(label, { selector: "dt" }).parentElement!.querySelector("dd")!.textContent;

describe("the visitor panel", () => {
  it("is a region named Visitor: name, e-mail and attributes at once, the browser's details once loaded", async () => {
    let resolve!: (v: VisitorResponse) => void;
    const load = vi.fn(() => new Promise<VisitorResponse>((r) => (resolve = r)));
    render(
      <VisitorPanel
        contactId="c1"
        name="Ada Lovelace"
        attributes={{
          customerName: "Ada Lovelace",
          email: "ada@example.com",
          orderNumber: "A-7",
          plan: "gold",
        }}
        sources={{ customerName: "jwt", email: "jwt", plan: "page" }}
        reads={readsOf(load)}
      />,
    );
    const region = screen.getByRole("region", { name: "Visitor" });
    expect(load).toHaveBeenCalledWith("c1");
    expect(value("Name")).toBe("Ada Lovelace Verified");
    expect(value("E-mail")).toBe("ada@example.com Verified");
    expect(within(region).getByRole("link", { name: "ada@example.com" }).getAttribute("href")).toBe(
      "mailto:ada@example.com",
    );
    expect(value("Browser")).toBe(VISITOR_LOADING);
    // Shown above, so not again in the attributes list; the order number as before.
    expect(
      [...region.querySelectorAll(".contact-attributes dt")].map((d) => d.textContent),
    ).toEqual(["plan"]);
    expect(screen.getByTestId("order-number").textContent).toBe("A-7");

    resolve(visitor({ Browser: "Chrome 131", OperatingSystem: "Windows 10", Language: "fr-FR" }));
    await waitFor(() => expect(value("Browser")).toBe("Chrome 131"));
    expect(value("Operating system")).toBe("Windows 10");
    expect(value("Language")).toBe("fr-FR");
    expect(region.querySelector("time")!.getAttribute("dateTime")).toBe("2026-01-16T09:30:00.000Z");
  });

  it("says what it does not know, and marks nothing unverified", async () => {
    render(
      <VisitorPanel
        contactId="c2"
        name="Customer"
        attributes={{ email: "said@example.com" }}
        sources={{ email: "page" }}
        reads={readsOf(async () => visitor())}
      />,
    );
    await waitFor(() => expect(value("Browser")).toBe(VISITOR_UNKNOWN));
    expect(value("Operating system")).toBe(VISITOR_UNKNOWN);
    expect(value("Language")).toBe(VISITOR_UNKNOWN);
    expect(value("E-mail")).toBe("said@example.com");
    expect(document.querySelector(".verified")).toBeNull();
  });

  it("shows why the details did not load, and loads them again on Try again", async () => {
    const load = vi
      .fn<(id: string) => Promise<VisitorResponse>>()
      .mockRejectedValueOnce(
        new AgentApiError("ResourceNotFoundException", "Contact c3 is not one of your chats.", 404),
      )
      .mockResolvedValueOnce(visitor({ Browser: "Firefox 133" }));
    render(<VisitorPanel contactId="c3" name="Bo" attributes={{}} reads={readsOf(load)} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Contact c3 is not one of your chats.");
    expect(value("Browser")).toBe("—");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(value("Browser")).toBe("Firefox 133"));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("reads the details again when the visitor moves, the last ones shown meanwhile", async () => {
    let resolve!: (v: VisitorResponse) => void;
    const load = vi
      .fn<(id: string) => Promise<VisitorResponse>>()
      .mockResolvedValueOnce(
        visitor({
          TimeZone: "UTC",
          Page: { Url: "https://shop.example/", Title: "Home", At: "2026-01-16T09:00:00Z" },
        }),
      )
      .mockImplementationOnce(() => new Promise((r) => (resolve = r)));
    const reads = readsOf(load);
    const panel = (moves: number) => (
      <VisitorPanel contactId="c4" name="Ann" attributes={{}} reads={reads} moves={moves} />
    );
    const { rerender } = render(panel(0));
    await waitFor(() => expect(screen.getByRole("link", { name: "Home" })).toBeTruthy());
    expect(screen.getByTestId("visitor-local-time").textContent).toMatch(/\(UTC\)$/);
    rerender(panel(1));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("link", { name: "Home" })).toBeTruthy();
    resolve(
      visitor({
        Page: { Url: "https://shop.example/cart", Title: "Cart", At: "2026-01-16T09:01:00Z" },
      }),
    );
    await waitFor(() => expect(screen.getByRole("link", { name: "Cart" })).toBeTruthy());
    expect(screen.queryByRole("link", { name: "Home" })).toBeNull();
  });

  it("says no page is known before the widget reports one", async () => {
    render(
      <VisitorPanel
        contactId="c5"
        name="Ann"
        attributes={{}}
        reads={readsOf(async () => visitor())}
      />,
    );
    await waitFor(() => expect(value("Page")).toBe(VISITOR_UNKNOWN));
    expect(value("Local time")).toBe(VISITOR_UNKNOWN);
  });
});
