import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saveAuth } from "../state/auth-storage.js";
import { fakeApi } from "../test-support/fake-sessions.js";
import { App } from "./App.js";

afterEach(() => {
  cleanup();
  saveAuth(null);
});

const advisor = {
  AdvisorId: "a",
  Username: "demo",
  Name: "Sam",
  Availability: "Offline" as const,
  MaxConcurrentChats: 10,
};

const silentEvents = () => () => {};

describe("signing out", () => {
  it("a failed server sign-out still signs out, and the sign-in screen says it failed", async () => {
    saveAuth({ token: "tok", advisor });
    const api = fakeApi({
      me: vi.fn(async () => ({ Advisor: advisor })),
      signOut: vi.fn(async () => {
        throw new Error("Network down");
      }),
    });
    render(<App api={api} subscribeEvents={silentEvents} />);
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await screen.findByRole("button", { name: "Sign in" });
    expect(screen.getByRole("alert").textContent).toBe("Sign-out failed: Network down");
  });
});
