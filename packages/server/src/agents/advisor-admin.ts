/**
 * Managing advisors, for the advisor CLI and the admin API alike: add (a generated password,
 * returned once), disable, enable, reset a password (generated; the advisor is signed out).
 * Passwords are stored only as scrypt hashes. Bad input is a ServiceError naming the problem.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import {
  findAdvisorByUsername,
  insertAdvisor,
  setDisabled,
  setPasswordHash,
} from "./advisors-repo.js";
import { hashPassword } from "./password.js";

export { listAdvisors } from "./advisors-repo.js";

const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
export const MAX_CHATS_LIMIT = 50;

/** A new password: 18 random bytes, 24 characters. */
const newPassword = (): string => randomBytes(18).toString("base64url");

function checkUsername(username: unknown): string {
  if (typeof username !== "string" || !USERNAME.test(username))
    throw Errors.validation("The username must be 1–64 letters, digits and . _ @ -");
  return username;
}

export interface NewAdvisor {
  username: unknown;
  name: unknown;
  maxChats?: unknown;
}

export async function addAdvisor(db: Db, a: NewAdvisor): Promise<{ password: string }> {
  const username = checkUsername(a.username);
  const name = typeof a.name === "string" ? a.name.trim() : "";
  if (name.length < 1 || name.length > 100)
    throw Errors.validation("The name must be 1–100 characters");
  const maxChats = a.maxChats ?? 10;
  if (
    typeof maxChats !== "number" ||
    !Number.isInteger(maxChats) ||
    maxChats < 1 ||
    maxChats > MAX_CHATS_LIMIT
  )
    throw Errors.validation(`MaxConcurrentChats must be an integer from 1 to ${MAX_CHATS_LIMIT}`);
  if (await findAdvisorByUsername(db, username))
    throw Errors.conflict(`${username} already exists`);
  const password = newPassword();
  await insertAdvisor(db, {
    advisorId: randomUUID(),
    username,
    name,
    passwordHash: await hashPassword(password),
    maxChats,
  });
  return { password };
}

/**
 * Disable (signing them out everywhere) or enable an advisor; returns their id. Disabling
 * changes only the store: revoking what they hold is AgentService.revoke's (admin API, CLI).
 */
export async function setAdvisorDisabled(
  db: Db,
  username: unknown,
  disabled: boolean,
): Promise<string> {
  const user = checkUsername(username);
  const advisorId = await setDisabled(db, user, disabled);
  if (advisorId === null) throw Errors.notFound(`No advisor ${user}`);
  return advisorId;
}

/** A new generated password; the advisor is signed out everywhere (their id returned too). */
export async function resetAdvisorPassword(
  db: Db,
  username: unknown,
): Promise<{ password: string; advisorId: string }> {
  const user = checkUsername(username);
  const password = newPassword();
  const advisorId = await setPasswordHash(db, user, await hashPassword(password));
  if (advisorId === null) throw Errors.notFound(`No advisor ${user}`);
  return { password, advisorId };
}
