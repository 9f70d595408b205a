import { parseArgs } from "node:util";
import { issueToken } from "../auth/tokens.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { migrate, openDatabase } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { addMember, createUser, findUserByEmail } from "../users/store.js";

const USAGE = `Usage:
  quire user create --email <email> --name <display name> [--org <organizationId> --role <role>]
  quire token create --email <email> [--label <label>]`;

const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];

export interface CliIo {
  /** Where the database is: a directory for SQLite or a postgres:// URL. */
  database: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one CLI command; returns the process exit code (0 done, 1 failed, 2 usage). */
export async function runCli(argv: string[], { database, out, err }: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      org: { type: "string" },
      role: { type: "string", default: "read" },
      label: { type: "string", default: "cli" },
    },
  });
  const command = positionals.join(" ");
  if ((command !== "user create" && command !== "token create") || !values.email) {
    err(`${USAGE}\n`);
    return 2;
  }
  const db = openDatabase({ location: database });
  const services = { clock: systemClock, ids: timeOrderedIds() };
  try {
    await migrate(db);
    if (command === "user create") {
      if (!values.name) throw new Error("--name is required");
      const role = values.role as Role;
      if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
      const user = await createUser(db, services, { email: values.email, displayName: values.name });
      if (values.org) await addMember(db, services.clock, values.org, user.id, role);
      out(`Created user ${user.id} (${user.email}).\n`);
    } else {
      const user = await findUserByEmail(db, values.email);
      if (!user) throw new Error(`No user has the email ${values.email}`);
      const token = await issueToken(db, services, user.id, values.label);
      out(`Token for ${user.email} (shown once):\n${token}\n`);
    }
    return 0;
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}
