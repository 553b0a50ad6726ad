/** The agent console: sign in, then the console; the sign-in survives a reload of the tab. */
import { useEffect, useState } from "react";
import type { AgentApi } from "../api/agent-api.js";
import { AgentApiError } from "../api/errors.js";
import { loadAuth, saveAuth, type Auth } from "../state/auth-storage.js";
import { Console, type ConsoleProps } from "./Console.js";
import { SignIn } from "./SignIn.js";

export interface AppProps {
  api: AgentApi;
  createChats?: ConsoleProps["createChats"];
  subscribeEvents?: ConsoleProps["subscribeEvents"];
}

export function App({ api, createChats, subscribeEvents }: AppProps) {
  const [auth, setAuthState] = useState<Auth | null>(() => loadAuth());
  const [signOutProblem, setSignOutProblem] = useState<string | null>(null);
  const setAuth = (next: Auth | null) => {
    saveAuth(next);
    setAuthState(next);
  };

  // A stored sign-in is checked once: an expired one goes back to the sign-in form.
  const token = auth?.token;
  useEffect(() => {
    if (!token) return;
    api.me(token).then(
      (me) => setAuthState((a) => (a && a.token === token ? { ...a, advisor: me.Advisor } : a)),
      (error: unknown) => {
        if (error instanceof AgentApiError && error.status === 403) setAuth(null);
      },
    );
  }, [api, token]);

  if (!auth) {
    return (
      <SignIn
        problem={signOutProblem}
        signIn={(u, p) => api.signIn(u, p)}
        onSignedIn={(r) => setAuth({ token: r.Token, advisor: r.Advisor })}
      />
    );
  }
  return (
    <Console
      api={api}
      token={auth.token}
      advisor={auth.advisor}
      onAdvisor={(advisor) => setAuth({ ...auth, advisor })}
      onSignOut={(problem) => {
        setSignOutProblem(problem ?? null);
        setAuth(null);
      }}
      createChats={createChats}
      subscribeEvents={subscribeEvents}
    />
  );
}
