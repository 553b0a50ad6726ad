/**
 * The advisor CLI's commands (cli/advisors.ts runs them): add, list, disable, enable and
 * reset-password. Passwords are generated here, printed once, and stored only as their scrypt hash.
 */
import { randomBytes, randomUUID } from "node:crypto";
import {
  findAdvisorByUsername,
  insertAdvisor,
  listAdvisors,
  setDisabled,
  setPasswordHash,
} from "../agents/advisors-repo.js";
import { hashPassword } from "../agents/password.js";
import type { Db } from "../store/db.js";

export const USAGE = `Usage: npm run advisors -- <command>
  add <username> --name "<display name>" [--max-chats <1-50>]   add an advisor; prints their password
  list                                                          list advisors
  disable <username>                                            disable an advisor and sign them out
  enable <username>                                             enable a disabled advisor
  reset-password <username>                                     set a new password (printed) and sign them out`;

const USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;

/** What a command prints, or the error it stops with. */
export class CliError extends Error {}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) throw new CliError(`${name} needs a value`);
  return value;
}

function username(args: string[]): string {
  const name = args[0];
  if (!name || !USERNAME.test(name)) {
    throw new CliError("A username of 1–64 letters, digits and . _ @ - is required");
  }
  return name;
}

/** A new password: 18 random bytes, 24 characters. */
const newPassword = (): string => randomBytes(18).toString("base64url");

export async function runAdvisorsCommand(db: Db, argv: string[]): Promise<string> {
  const [command, ...args] = argv;
  switch (command) {
    case "add": {
      const user = username(args);
      const name = option(args, "--name")?.trim();
      if (!name || name.length > 100) throw new CliError("--name of 1–100 characters is required");
      const maxChats = Number(option(args, "--max-chats") ?? 10);
      if (!Number.isInteger(maxChats) || maxChats < 1 || maxChats > 50)
        throw new CliError("--max-chats must be an integer from 1 to 50");
      if (await findAdvisorByUsername(db, user)) throw new CliError(`${user} already exists`);
      const password = newPassword();
      await insertAdvisor(db, {
        advisorId: randomUUID(),
        username: user,
        name,
        passwordHash: await hashPassword(password),
        maxChats,
      });
      return `Added ${user} (${name}). Password: ${password}\nIt is shown only now.`;
    }
    case "list": {
      const advisors = await listAdvisors(db);
      if (advisors.length === 0) return "No advisors.";
      return advisors
        .map(
          (a) =>
            `${a.Username}\t${a.Name}\t${a.disabled ? "disabled" : a.Availability}\tmax ${a.MaxConcurrentChats} chats`,
        )
        .join("\n");
    }
    case "disable":
    case "enable": {
      const user = username(args);
      if (!(await setDisabled(db, user, command === "disable")))
        throw new CliError(`No advisor ${user}`);
      return command === "disable" ? `Disabled ${user} and signed them out.` : `Enabled ${user}.`;
    }
    case "reset-password": {
      const user = username(args);
      const password = newPassword();
      if (!(await setPasswordHash(db, user, await hashPassword(password))))
        throw new CliError(`No advisor ${user}`);
      return `New password for ${user}: ${password}\nIt is shown only now; ${user} was signed out.`;
    }
    default:
      throw new CliError(command ? `Unknown command ${command}\n${USAGE}` : USAGE);
  }
}
