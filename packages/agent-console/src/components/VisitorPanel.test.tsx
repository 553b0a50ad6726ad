import type { VisitorResponse } from "@chat-widget/protocol";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { VISITOR_LOADING, VISITOR_UNKNOWN, VisitorPanel } from "./VisitorPanel.js";

afterEach(cleanup);

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
        load={load}
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
        load={async () => visitor()}
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
    render(<VisitorPanel contactId="c3" name="Bo" attributes={{}} load={load} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Contact c3 is not one of your chats.");
    expect(value("Browser")).toBe("—");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(value("Browser")).toBe("Firefox 133"));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
