/**
 * Where the widget gets its rare views: loaded once, when first wanted, by whoever builds the
 * widget (the script tag loads `chat-views.js`; tests hand the module over at once). Until then
 * (or if loading failed: the next `load()` tries again) `current()` is null and the views show
 * their plain fallbacks.
 */
import type { LazyViews } from "./contract.js";

export interface ViewsSource {
  current(): LazyViews | null;
  subscribe(listener: () => void): () => void;
  load(): void;
}

export function lazyViews(load: () => Promise<LazyViews | null>): ViewsSource {
  let views: LazyViews | null = null;
  let loading = false;
  const listeners = new Set<() => void>();
  return {
    current: () => views,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    load() {
      if (views || loading) return;
      loading = true;
      void load().then((loaded) => {
        loading = false;
        if (!loaded) return;
        views = loaded;
        for (const listener of listeners) listener();
      });
    },
  };
}

/** Views already at hand (tests, or a build that bundles them). */
export const readyViews = (views: LazyViews): ViewsSource => ({
  current: () => views,
  subscribe: () => () => {},
  load: () => {},
});
