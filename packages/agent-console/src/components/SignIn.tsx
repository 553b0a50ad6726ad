/** Sign-in form of the advisor (the seeded demo advisor is demo / demo). */
import { useState, type FormEvent } from "react";
import type { SignInResponse } from "@chat-widget/protocol";
import { errorText } from "../api/errors.js";

export interface SignInProps {
  signIn(username: string, password: string): Promise<SignInResponse>;
  onSignedIn(response: SignInResponse): void;
  /** Shown until the next sign-in attempt (e.g. the last sign-out failed on the server). */
  problem?: string | null;
}

export function SignIn({ signIn, onSignedIn, problem = null }: SignInProps) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(problem);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(username.trim(), password));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form onSubmit={(e) => void submit(e)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Agent console</h1>
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
            autoFocus
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <p className="hint">Demo advisor: username demo, password demo.</p>
      </form>
    </main>
  );
}
