/** A tiny external store around the reducer, read by React with useSyncExternalStore. */
import { initialState, reducer } from "./reducer.js";
import type { Action, WidgetState } from "./reducer.js";

export interface Store {
  getState(): WidgetState;
  dispatch(action: Action): void;
  subscribe(listener: () => void): () => void;
}

export function createStore(state: WidgetState = initialState): Store {
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
