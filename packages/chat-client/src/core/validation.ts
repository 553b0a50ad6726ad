/** Argument checks with the exact messages of the spec (§5, §8). */
import { KNOWN_CONTENT_TYPES } from "@chat-widget/protocol";
import { illegalArgument } from "./errors.js";

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const isFunction = (value: unknown): value is (...args: never[]) => unknown =>
  typeof value === "function";

/** "{name} must be provided" */
export function assertNotNull(value: unknown, name: string): void {
  if (value === null || value === undefined)
    throw illegalArgument(`${name} must be provided`, value);
}

/** "{x} is not a non-empty string!" */
export function assertIsNonEmptyString(value: unknown, key: string): asserts value is string {
  if (typeof value !== "string" || value.length === 0) {
    throw illegalArgument(`${key} is not a non-empty string!`, value);
  }
}

/** "{x} is not an array" */
export function assertIsList(value: unknown, key: string): asserts value is unknown[] {
  if (!Array.isArray(value)) throw illegalArgument(`${key} is not an array`, value);
}

/** "{x} is not an object!" */
export function assertIsObject(
  value: unknown,
  key: string,
): asserts value is Record<string, unknown> {
  if (!isObject(value)) throw illegalArgument(`${key} is not an object!`, value);
}

export function assertIsEnum(value: unknown, allowed: readonly string[], key: string): void {
  if (typeof value !== "string" || !allowed.includes(value)) {
    throw illegalArgument(
      `${key} passed (${String(value)}) is not valid. Allowed values are: ${allowed.join(",")}`,
      value,
    );
  }
}

/** sendMessage/sendEvent accept only the content types chatjs knows (docs/protocol.md §2.7). */
export function assertKnownContentType(contentType: unknown): void {
  assertIsEnum(contentType, [...KNOWN_CONTENT_TYPES], "contentType");
}
