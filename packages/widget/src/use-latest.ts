/**
 * A ref that holds the latest value of a prop, for callbacks that run later (events, timers):
 * updated after each render commits, never during it.
 */
import { useLayoutEffect, useRef } from "react";

export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
