/**
 * Per-key state for the request throttles, in a Map kept in the order of each key's last use:
 * what expires first, and what is dropped when the map is full, is at the front.
 */

/** Sets `key` as the newest entry, first dropping the oldest while the map holds `maxKeys`. */
export function setNewest<V>(entries: Map<string, V>, key: string, value: V, maxKeys: number) {
  entries.delete(key);
  while (entries.size >= maxKeys) {
    const oldest = entries.keys().next().value as string;
    entries.delete(oldest);
  }
  entries.set(key, value);
}
