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
  // The sign-in this tab kept from before a reload, if any: it is read once.
  const [stored] = useState<Auth | null>(() => loadAuth());
  const [auth, setAuthState] = useState<Auth | null>(stored);
  const [signOutProblem, setSignOutProblem] = useState<string | null>(null);
  const setAuth = (next: Auth | null) => {
    saveAuth(next);
    setAuthState(next);
  };

  // A stored sign-in is checked once: an expired one goes back to the sign-in form. A fresh
  // sign-in needs no check (its answer holds the advisor), and the check's answer is dropped
  // once anything changed the sign-in meanwhile: an availability the advisor set while it
  // was on its way is not undone by the state read before it.
  useEffect(() => {
    if (!stored) return;
    api.me(stored.token).then(
      (me) => setAuthState((a) => (a === stored ? { ...a, advisor: me.Advisor } : a)),
      (error: unknown) => {
        if (!(error instanceof AgentApiError && error.status === 403)) return;
        setAuthState((a) => {
          if (a?.token !== stored.token) return a;
          saveAuth(null);
          return null;
        });
      },
    );
  }, [api, stored]);

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
