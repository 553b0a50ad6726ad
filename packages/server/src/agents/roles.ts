/**
 * What an advisor may do (issue 62): `advisor` takes chats, `supervisor` watches the floor,
 * `admin` manages advisors and settings. One advisor may hold several.
 */
import { Errors } from "../errors.js";

export const ROLES = ["advisor", "supervisor", "admin"] as const;
export type Role = (typeof ROLES)[number];

const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/** Roles as given (a list of role names), each once, in ROLES' order; bad input is a 400. */
export function parseRoles(value: unknown): Role[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRole))
    throw Errors.validation(`Roles must be a list of one or more of ${ROLES.join(", ")}`);
  return ROLES.filter((role) => value.includes(role));
}

/** Roles read from the store: unknown names (a newer version's) are ignored. */
export const storedRoles = (value: unknown): Role[] =>
  Array.isArray(value) ? ROLES.filter((role) => value.includes(role)) : ["advisor"];
