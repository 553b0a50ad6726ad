/**
 * Managing advisors, for the advisor CLI and the admin API alike: add (a generated password,
 * returned once), disable, enable, reset a password (generated; the advisor is signed out), set
 * roles. Passwords are stored only as scrypt hashes. Bad input is a ServiceError naming the
 * problem. Where there is an enabled admin, no change leaves none (issue 62).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Errors } from "../errors.js";
import type { Db } from "../store/db.js";
import {
  countEnabledAdmins,
  findAdvisorByUsername,
  insertAdvisor,
  setDisabled,
  setPasswordHash,
  setRoles,
} from "./advisors-repo.js";
import { hashPassword } from "./password.js";
import { parseRoles } from "./roles.js";

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
  /** Roles (advisor when not given). */
  roles?: unknown;
}

/** Any constant shared by every process: changes to admins run one at a time. */
const ADMINS_LOCK = 4_812_062;

/** Run a change that must leave an enabled admin where there was one: a 409 otherwise. */
function keepingAnAdmin<T>(db: Db, change: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [ADMINS_LOCK]);
    const before = await countEnabledAdmins(tx);
    const result = await change(tx);
    if (before > 0 && (await countEnabledAdmins(tx)) === 0)
      throw Errors.conflict("At least one enabled admin must remain.");
    return result;
  });
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
  const roles = a.roles === undefined ? undefined : parseRoles(a.roles);
  if (await findAdvisorByUsername(db, username))
    throw Errors.conflict(`${username} already exists`);
  const password = newPassword();
  await insertAdvisor(db, {
    advisorId: randomUUID(),
    username,
    name,
    passwordHash: await hashPassword(password),
    maxChats,
    ...(roles ? { roles } : {}),
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
  const advisorId = await keepingAnAdmin(db, (tx) => setDisabled(tx, user, disabled));
  if (advisorId === null) throw Errors.notFound(`No advisor ${user}`);
  return advisorId;
}

/** Set an advisor's roles; returns their id. */
export async function setAdvisorRoles(db: Db, username: unknown, roles: unknown): Promise<string> {
  const user = checkUsername(username);
  const parsed = parseRoles(roles);
  const advisorId = await keepingAnAdmin(db, (tx) => setRoles(tx, user, parsed));
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
