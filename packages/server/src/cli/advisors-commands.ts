/**
 * The advisor CLI's commands (cli/advisors.ts runs them): add, list, disable, enable,
 * reset-password and roles, through agents/advisor-admin.ts (which the admin API uses too).
 * Each change is in the audit log, its actor the CLI (issue 62).
 */
import {
  addAdvisor,
  listAdvisors,
  resetAdvisorPassword,
  setAdvisorDisabled,
  setAdvisorRoles,
} from "../agents/advisor-admin.js";
import { CLI_ACTOR } from "../audit/admin-access.js";
import { recordAudit } from "../audit/audit-repo.js";
import { isServiceError } from "../errors.js";
import type { Db } from "../store/db.js";

export const USAGE = `Usage: npm run advisors -- <command>
  add <username> --name "<display name>" [--max-chats <1-50>] [--role <role>]...
                                                  add an advisor; prints their password
  list                                            list advisors
  disable <username>                              disable an advisor and sign them out
  enable <username>                               enable a disabled advisor
  reset-password <username>                       set a new password (printed) and sign them out
  roles <username> <role>...                      set an advisor's roles
Roles: advisor (the default), supervisor, admin.`;

/** What a command prints, or the error it stops with. */
export class CliError extends Error {}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) throw new CliError(`${name} needs a value`);
  return value;
}

/** Every value of a repeatable option. */
function options(args: string[], name: string): string[] {
  return args.flatMap((arg, at) => (arg === name ? [option(args.slice(at), name)!] : []));
}

export async function runAdvisorsCommand(db: Db, argv: string[]): Promise<string> {
  try {
    const said = await run(db, argv);
    const [command, user] = argv;
    if (command && command !== "list")
      await recordAudit(db, {
        at: new Date().toISOString(),
        actor: CLI_ACTOR,
        action: `advisors ${command}`,
        target: user ?? null,
        detail: command === "roles" ? { Roles: argv.slice(2) } : {},
        address: null,
      });
    return said;
  } catch (error) {
    // The operations' own refusals (bad input, no such advisor) are the CLI's to print.
    if (isServiceError(error) && error.statusCode < 500) throw new CliError(error.message);
    throw error;
  }
}

async function run(db: Db, argv: string[]): Promise<string> {
  const [command, user, ...args] = argv;
  switch (command) {
    case "add": {
      const name = option(args, "--name");
      const maxChats = option(args, "--max-chats");
      const roles = options(args, "--role");
      const { password } = await addAdvisor(db, {
        username: user,
        name,
        ...(maxChats !== undefined ? { maxChats: Number(maxChats) } : {}),
        ...(roles.length ? { roles } : {}),
      });
      return `Added ${user} (${name?.trim()}). Password: ${password}\nIt is shown only now.`;
    }
    case "list": {
      const advisors = await listAdvisors(db);
      if (advisors.length === 0) return "No advisors.";
      return advisors
        .map(
          (a) =>
            `${a.Username}\t${a.Name}\t${a.disabled ? "disabled" : a.Availability}\tmax ${a.MaxConcurrentChats} chats\t${a.roles.join(",")}`,
        )
        .join("\n");
    }
    case "disable":
    case "enable":
      await setAdvisorDisabled(db, user, command === "disable");
      return command === "disable" ? `Disabled ${user} and signed them out.` : `Enabled ${user}.`;
    case "reset-password": {
      const { password } = await resetAdvisorPassword(db, user);
      return `New password for ${user}: ${password}\nIt is shown only now; ${user} was signed out.`;
    }
    case "roles": {
      await setAdvisorRoles(db, user, args);
      return `${user} now has the roles ${args.join(", ")}.`;
    }
    default:
      throw new CliError(command ? `Unknown command ${command}\n${USAGE}` : USAGE);
  }
}
