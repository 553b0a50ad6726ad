import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentApiError } from "../api/errors.js";
import { loadAuth, saveAuth } from "../state/auth-storage.js";
import { fakeApi } from "../test-support/fake-sessions.js";
import { App, type AppProps } from "./App.js";
import { SIGNED_OUT } from "./Console.js";

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

describe("signed out by the server (issue 57)", () => {
  it("the events stream refused (the advisor was disabled or signed out elsewhere) goes back to the sign-in form, saying so, and forgets the sign-in", async () => {
    saveAuth({ token: "tok", advisor });
    const api = fakeApi({ me: vi.fn(async () => ({ Advisor: advisor })) });
    let revoke = () => {};
    const events: AppProps["subscribeEvents"] = (handlers) => {
      revoke = () => handlers.signedOut();
      return () => {};
    };
    render(<App api={api} subscribeEvents={events} />);
    await screen.findByRole("button", { name: "Sign out" });
    act(() => revoke());
    await screen.findByRole("button", { name: "Sign in" });
    expect(screen.getByRole("alert").textContent).toBe(SIGNED_OUT);
    expect(loadAuth()).toBeNull();
  });
});

describe("the sign-in check", () => {
  const available = { ...advisor, Availability: "Available" as const };
  const deferred = <T,>() => {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it("a stored sign-in's check, answered after the advisor became Available, does not undo it", async () => {
    saveAuth({ token: "tok", advisor });
    const me = deferred<{ Advisor: typeof advisor }>();
    const api = fakeApi({
      me: vi.fn(() => me.promise),
      setAvailability: vi.fn(async () => ({ Advisor: available })),
    });
    render(<App api={api} subscribeEvents={silentEvents} />);
    fireEvent.click(screen.getByRole("switch"));
    await waitFor(() =>
      expect(screen.getByRole("switch").getAttribute("aria-checked")).toBe("true"),
    );
    // The check read the advisor before the change and answers after it.
    await act(async () => me.resolve({ Advisor: advisor }));
    expect(screen.getByRole("switch").getAttribute("aria-checked")).toBe("true");
    expect(loadAuth()?.advisor.Availability).toBe("Available");
  });

  it("a stored sign-in's check updates the advisor when nothing changed meanwhile", async () => {
    saveAuth({ token: "tok", advisor });
    const api = fakeApi({ me: vi.fn(async () => ({ Advisor: available })) });
    render(<App api={api} subscribeEvents={silentEvents} />);
    await waitFor(() =>
      expect(screen.getByRole("switch").getAttribute("aria-checked")).toBe("true"),
    );
  });

  it("an expired stored sign-in goes back to the sign-in form", async () => {
    saveAuth({ token: "tok", advisor });
    const api = fakeApi({
      me: vi.fn(async () => {
        throw new AgentApiError("AccessDeniedException", "expired", 403);
      }),
    });
    render(<App api={api} subscribeEvents={silentEvents} />);
    await screen.findByRole("button", { name: "Sign in" });
    expect(loadAuth()).toBeNull();
  });

  it("a fresh sign-in is not checked again: its answer already holds the advisor", async () => {
    const api = fakeApi({
      signIn: vi.fn(async () => ({ Token: "tok", ExpiresAt: "", Advisor: advisor })),
      setAvailability: vi.fn(async () => ({ Advisor: available })),
    });
    render(<App api={api} subscribeEvents={silentEvents} />);
    fireEvent.change(screen.getByLabelText("Username"), { target: { value: "demo" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "demo" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    fireEvent.click(await screen.findByRole("switch"));
    await waitFor(() =>
      expect(screen.getByRole("switch").getAttribute("aria-checked")).toBe("true"),
    );
    expect(api.me).not.toHaveBeenCalled();
  });
});
