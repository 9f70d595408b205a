#!/usr/bin/env node
import { parseArgs } from "node:util";
import { issueToken } from "./auth/tokens.js";
import { configFromEnv } from "./config.js";
import { systemClock, timeOrderedIds } from "./context.js";
import { migrate, openDatabase } from "./db/database.js";
import type { Role } from "./db/schema.js";
import { addMember, createUser, findUserByEmail } from "./users/store.js";

const USAGE = `Usage:
  quire user create --email <email> --name <display name> [--org <organizationId> --role <role>]
  quire token create --email <email> [--label <label>]`;

const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];

async function main(argv: string[]): Promise<number> {
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
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const db = openDatabase({ location: configFromEnv().database });
  const services = { clock: systemClock, ids: timeOrderedIds() };
  try {
    await migrate(db);
    if (command === "user create") {
      if (!values.name) throw new Error("--name is required");
      const role = values.role as Role;
      if (!ROLES.includes(role)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
      const user = await createUser(db, services, { email: values.email, displayName: values.name });
      if (values.org) await addMember(db, services.clock, values.org, user.id, role);
      process.stdout.write(`Created user ${user.id} (${user.email}).\n`);
    } else {
      const user = await findUserByEmail(db, values.email);
      if (!user) throw new Error(`No user has the email ${values.email}`);
      const token = await issueToken(db, services, user.id, values.label);
      process.stdout.write(`Token for ${user.email} (shown once):\n${token}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
