import { parseArgs } from "node:util";
import { passwordProblem, setPassword } from "../accounts/index.js";
import { issueToken, listTokens, revokeToken } from "../auth/tokens.js";
import { createOrganization } from "../commands/create-organization.js";
import { userPath } from "../config.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { backupSqlite, restoreSqlite } from "../db/backup.js";
import { type Db, isPostgresLocation, migrate, openDatabase } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { addMembership } from "../members/index.js";
import { createUser, findUserByEmail } from "../users/index.js";

const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];

export const USAGE = `Usage:
  quire organization create --title <title> --email <owner's email>
  quire user create --email <email> --name <display name> [--org <organizationId> [--role <role>]]
  quire user password --email <email>   (reads the new password from standard input)
  quire member list --org <organizationId>
  quire token create --email <email> [--label <label>]
  quire token list --email <email>
  quire token revoke --id <tokenId>
  quire backup --to <file>        (SQLite: a consistent copy, while the server runs)
  quire restore --from <file>     (SQLite: with the server stopped)

The database is QUIRE_DATA_DIR (default ./data) or DATABASE_URL, as for the server; relative paths
are read from the directory the command was typed in. Only restore creates a database. A backup
carries the generated secret key (none when QUIRE_SECRET_KEY is set) and a restore puts it back.
With PostgreSQL, back up and restore with pg_dump and pg_restore.
Roles: ${ROLES.join(", ")} (default read).`;

const OPTIONS = {
  email: { type: "string" },
  name: { type: "string" },
  org: { type: "string" },
  role: { type: "string" },
  label: { type: "string", default: "cli" },
  id: { type: "string" },
  title: { type: "string" },
  to: { type: "string" },
  from: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type ParsedArgs = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
type Values = ParsedArgs["values"];

interface Command {
  required: readonly ("email" | "name" | "id" | "title" | "org" | "to" | "from")[];
  /** Commands on the SQLite file itself run without opening the database through Kysely. */
  onFile?: (values: Values, io: CliIo) => Promise<void>;
  run?(db: Db, values: Values, out: (text: string) => void, io: CliIo): Promise<void>;
}

/** The SQLite directory of `location`, or an error for PostgreSQL. */
function sqliteDirectory(location: string): string {
  if (isPostgresLocation(location))
    throw new Error("The database is PostgreSQL: back it up and restore it with pg_dump and pg_restore");
  return location;
}

const services = { clock: systemClock, ids: timeOrderedIds() };

async function userByEmail(db: Db, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`No user has the email ${email}`);
  return user;
}

const COMMANDS: Record<string, Command> = {
  "organization create": {
    required: ["title", "email"],
    async run(db, { title = "", email = "" }, out) {
      const owner = await userByEmail(db, email);
      const organization = await createOrganization(db, services, owner.id, { title });
      out(
        `Created organization ${organization.id} (${organization.title}), administered by ${owner.email}.\n`,
      );
    },
  },
  "member list": {
    required: ["org"],
    async run(db, { org = "" }, out) {
      const found = await db
        .selectFrom("organizations")
        .select("id")
        .where("id", "=", org)
        .executeTakeFirst();
      if (!found) throw new Error(`No organization ${org}`);
      const members = await db
        .selectFrom("memberships")
        .innerJoin("users", "users.id", "memberships.user_id")
        .select(["users.id", "users.email", "memberships.role", "memberships.joined_at"])
        .where("memberships.organization_id", "=", org)
        .orderBy("memberships.joined_at")
        .orderBy("users.id")
        .execute();
      for (const member of members)
        out(`${member.id}\t${member.email}\t${member.role ?? "guest"}\t${member.joined_at}\n`);
    },
  },
  backup: {
    required: ["to"],
    async onFile({ to = "" }, { database, secretKeyConfigured, env, out }) {
      const file = userPath(to, env);
      const bytes = await backupSqlite(sqliteDirectory(database), file, {
        keyConfigured: secretKeyConfigured,
      });
      out(`Backed up ${(bytes / 1_000_000).toFixed(1)} MB (${bytes} bytes) to ${file}.\n`);
    },
  },
  restore: {
    required: ["from"],
    async onFile({ from = "" }, { database, secretKeyConfigured, env, out }) {
      const file = userPath(from, env);
      const withKey = await restoreSqlite(file, sqliteDirectory(database), {
        keyConfigured: secretKeyConfigured,
      });
      out(`Restored ${file}${withKey ? " and its secret key" : ""}; start the server.\n`);
    },
  },
  "user create": {
    required: ["email", "name"],
    async run(db, { email = "", name = "", org, role = "read" }, out) {
      if (!ROLES.includes(role as Role)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
      // One transaction, so that a refused membership leaves no user behind.
      const user = await db.transaction().execute(async (tx) => {
        if (await findUserByEmail(tx, email))
          throw new Error(`A user with the email ${email} already exists`);
        if (org) {
          const found = await tx
            .selectFrom("organizations")
            .select("id")
            .where("id", "=", org)
            .executeTakeFirst();
          if (!found) throw new Error(`No organization ${org}`);
        }
        const created = await createUser(tx, services, { email, displayName: name });
        if (org)
          await addMembership(tx, services, {
            organizationId: org,
            userId: created.id,
            role: role as Role,
            joinedAt: services.clock.now().toISOString(),
          });
        return created;
      });
      out(`Created user ${user.id} (${user.email})${org ? `, ${role} in ${org}` : ""}.\n`);
    },
  },
  "user password": {
    required: ["email"],
    // Never an argument: the shell's history and the process list would show it.
    async run(db, { email = "" }, out, { input }) {
      const user = await userByEmail(db, email);
      const password = (await input()).replace(/\r?\n$/, "");
      const problem = passwordProblem(password);
      if (problem) throw new Error(problem);
      await setPassword(
        { ...services, transaction: (work) => db.transaction().execute(work) },
        user.id,
        password,
        {},
      );
      out(`Set the password of ${user.email}; their sessions are signed out.\n`);
    },
  },
  "token create": {
    required: ["email"],
    async run(db, { email = "", label }, out) {
      const user = await userByEmail(db, email);
      const token = await issueToken(db, services, user.id, label);
      out(`Token for ${user.email} (shown once):\n${token}\n`);
    },
  },
  "token list": {
    required: ["email"],
    async run(db, { email = "" }, out) {
      const user = await userByEmail(db, email);
      for (const token of await listTokens(db, user.id))
        out(`${token.id}\t${token.label}\t${token.created_at}\n`);
    },
  },
  "token revoke": {
    required: ["id"],
    async run(db, { id = "" }, out) {
      if (!(await revokeToken(db, services, id))) throw new Error(`No token ${id}`);
      out(`Revoked token ${id}.\n`);
    },
  },
};

export interface CliIo {
  /** Where the database is: a directory for SQLite or a postgres:// URL. */
  database: string;
  /** Whether `QUIRE_SECRET_KEY` is set: then backups carry no key and restores write none. */
  secretKeyConfigured: boolean;
  /** The environment the command runs in, which tells where relative paths start (`userPath`). */
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Standard input, read to its end: where a password comes from. */
  input: () => Promise<string>;
}

type Parsed = { command: Command; values: Values } | { exit: number; message?: string };

/** The command and its options, or why there is none: help (0) or a usage error (2). */
function parse(argv: string[]): Parsed {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // parseArgs reports unknown options and missing values by throwing; its advice on quoting
    // arguments that start with a dash is dropped, the rest kept on one line.
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      const message = (error as Error).message.replace(/\s*To specify .*$/s, "").replaceAll("\n", " ");
      return { exit: 2, message };
    }
    throw error;
  }
  const { positionals, values } = parsed;
  if (values.help) return { exit: 0 };
  if (positionals.length === 0) return { exit: 2 };
  const name = positionals.join(" ");
  // hasOwn: "toString" and the like are no commands.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return { exit: 2, message: `Unknown command "${name}"` };
  const missing = command.required.filter((option) => !values[option]);
  if (missing.length > 0)
    return { exit: 2, message: `${name} needs ${missing.map((option) => `--${option}`).join(" and ")}` };
  if (name === "user create" && values.role && !values.org) return { exit: 2, message: "--role needs --org" };
  return { command, values };
}

/** Runs one CLI command; returns the process exit code (0 done, 1 failed, 2 usage). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const { database, out, err } = io;
  const parsed = parse(argv);
  if ("exit" in parsed) {
    if (parsed.exit === 0) out(`${USAGE}\n`);
    else err(`${parsed.message ? `quire: ${parsed.message}\n\n` : ""}${USAGE}\n`);
    return parsed.exit;
  }
  let db: Db | undefined;
  try {
    const { command, values } = parsed;
    if (command.onFile) await command.onFile(values, io);
    else {
      // A mistyped QUIRE_DATA_DIR must not leave a new, empty database behind.
      db = openDatabase({ location: database, create: false });
      await migrate(db);
      await command.run?.(db, values, out, io);
    }
    return 0;
  } catch (error) {
    // What went wrong is for the user to fix (a bad value, an unreachable database): no stack trace.
    err(`quire: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db?.destroy();
  }
}
