import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { AttributesPanel } from "./AttributesPanel.js";
import { AvailabilityToggle } from "./AvailabilityToggle.js";
import { MetricsChart } from "./MetricsChart.js";
import { QueueList } from "./QueueList.js";
import { SignIn } from "./SignIn.js";
import { Transfers } from "./Transfers.js";

afterEach(cleanup);

describe("errors are shown, not swallowed", () => {
  it("sign-in shows the server's message", async () => {
    const signIn = vi.fn(async () => {
      throw new AgentApiError("AccessDeniedException", "Wrong username or password.", 403);
    });
    render(<SignIn signIn={signIn} onSignedIn={() => {}} />);
    fireEvent.change(screen.getByLabelText("Username"), { target: { value: "demo" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "nope" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Wrong username or password.");
    expect(signIn).toHaveBeenCalledWith("demo", "nope");
  });

  it("a refused accept shows why", async () => {
    const accept = vi.fn(async () => {
      throw new AgentApiError("ConflictException", "Contact c1 has already been accepted.", 409);
    });
    render(
      <QueueList
        contacts={[
          {
            ContactId: "c1",
            Queue: "advisors",
            QueuedAt: new Date(0).toISOString(),
            CustomerName: "Ada",
            OrderNumber: "A-1",
          },
        ]}
        blocked={null}
        accept={accept}
        now={() => 65_000}
      />,
    );
    expect(screen.getByText("Order A-1")).toBeTruthy();
    expect(screen.getByText("waiting 1 min")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Accept chat with Ada" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Contact c1 has already been accepted.",
    );
  });

  it("a failed availability change shows why", async () => {
    const change = vi.fn(async () => {
      throw new Error("Network down");
    });
    render(<AvailabilityToggle availability="Offline" change={change} />);
    fireEvent.click(screen.getByRole("switch"));
    expect(change).toHaveBeenCalledWith("Available");
    expect((await screen.findByRole("alert")).textContent).toBe("Network down");
  });

  it("metrics that cannot be loaded say so", async () => {
    render(<MetricsChart load={async () => Promise.reject(new Error("HTTP 503"))} />);
    expect((await screen.findByRole("alert")).textContent).toBe("Metrics unavailable: HTTP 503");
  });
});

describe("the queue", () => {
  it("cannot be accepted from while the advisor is offline or full", () => {
    render(
      <QueueList
        contacts={[
          {
            ContactId: "c1",
            Queue: "q",
            QueuedAt: new Date().toISOString(),
            CustomerName: "",
          },
        ]}
        blocked="Set yourself Available to accept chats."
        accept={vi.fn()}
      />,
    );
    expect(screen.getByText("Set yourself Available to accept chats.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Accept chat with Customer" })).toHaveProperty(
      "disabled",
      true,
    );
  });
});

describe("the contact's attributes", () => {
  it("show the reported order number prominently, then the other attributes", () => {
    render(
      <AttributesPanel
        attributes={{ orderNumber: "A-10042", customerName: "Alex", basketItems: "2" }}
      />,
    );
    expect(screen.getByTestId("order-number").textContent).toBe("A-10042");
    expect([...document.querySelectorAll("dt")].map((d) => d.textContent)).toEqual([
      "basketItems",
      "customerName",
    ]);
  });

  it("marks the values of the verified jwt Verified, and no other (issue 57)", () => {
    render(
      <AttributesPanel
        attributes={{ orderNumber: "A-1", customerName: "Ada", plan: "gold", note: "hi" }}
        sources={{ orderNumber: "report", customerName: "jwt", plan: "page", note: "flow" }}
      />,
    );
    const marked = [...document.querySelectorAll(".verified")].map(
      (v) => v.closest("div")!.querySelector("dt, .label")!.textContent,
    );
    expect(marked).toEqual(["customerName"]);
    expect(screen.getByText("Ada").textContent).toBe("Ada Verified");
    cleanup();
    render(
      <AttributesPanel attributes={{ orderNumber: "A-1" }} sources={{ orderNumber: "jwt" }} />,
    );
    expect(document.querySelector(".order-number .verified")!.textContent).toBe("Verified");
  });

  it("say when no order number was reported", () => {
    render(<AttributesPanel attributes={{}} />);
    expect(screen.getByTestId("order-number").textContent).toBe("not reported");
  });
});

describe("the live metrics chart", () => {
  it("draws the latest values from /metrics", async () => {
    const load = vi.fn(
      async () =>
        'chat_widget_queue_waiting_contacts{queue="a"} 4\nchat_widget_queue_active_chats{queue="a"} 2\n',
    );
    render(<MetricsChart load={load} />);
    await waitFor(() => expect(screen.getByTestId("metric-waiting").textContent).toBe("4"));
    expect(screen.getByTestId("metric-active").textContent).toBe("2");
    expect(document.querySelector('polyline[data-series="waiting"]')?.getAttribute("points")).toBe(
      "0,0 220,0",
    );
  });
});

describe("attachment transfers", () => {
  it("show their progress", () => {
    render(
      <Transfers
        transfers={[
          { id: "1", name: "a.pdf", direction: "upload", loaded: 50, total: 200, done: false },
          { id: "2", name: "b.png", direction: "download", loaded: 1, total: 0, done: false },
          { id: "3", name: "c.png", direction: "upload", loaded: 1, total: 1, done: true },
        ]}
      />,
    );
    expect(screen.getByText("Sending a.pdf 25%")).toBeTruthy();
    expect(screen.getByText("Downloading b.png…")).toBeTruthy();
    expect(screen.queryByText(/c\.png/)).toBeNull();
  });
});

describe("the queue's waiting times", () => {
  it("move on every 5 s while the queue is unchanged", async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      render(
        <QueueList
          contacts={[
            {
              ContactId: "c1",
              Queue: "q",
              QueuedAt: new Date(0).toISOString(),
              CustomerName: "Ada",
            },
          ]}
          blocked={null}
          accept={vi.fn()}
          now={() => now}
        />,
      );
      expect(screen.getByText("waiting 0 s")).toBeTruthy();
      now = 4_999;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(4_999);
      });
      expect(screen.getByText("waiting 0 s")).toBeTruthy();
      now = 5_000;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      expect(screen.getByText("waiting 5 s")).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
