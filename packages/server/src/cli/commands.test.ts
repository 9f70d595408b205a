import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSecretKey } from "../auth/secret-key.js";
import { userForToken } from "../auth/tokens.js";
import { createOrganization } from "../commands/create-organization.js";
import { configFromEnv } from "../config.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import { createUser } from "../users/store.js";
import { runCli, USAGE } from "./commands.js";

const database = mkdtempSync(join(tmpdir(), "quire-cli-"));
let db: Db;
let organizationId: string;

beforeAll(async () => {
  db = openDatabase({ location: database });
  await migrate(db);
  const services = { clock: systemClock, ids: timeOrderedIds() };
  const owner = await createUser(db, services, { email: "owner@example.com", displayName: "Owner" });
  organizationId = (await createOrganization(db, services, owner.id, { title: "Org" })).id;
});
afterAll(async () => {
  await db.destroy();
  rmSync(database, { recursive: true, force: true });
});

/** Runs the CLI with `stdin` as its standard input. */
async function runWithInput(stdin: string, ...argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    database,
    secretKeyConfigured: false,
    env: {},
    out: (t) => (out += t),
    err: (t) => (err += t),
    input: async () => stdin,
  });
  return { code, out, err };
}

const run = (...argv: string[]) => runWithInput("", ...argv);

const userByEmail = (email: string) =>
  db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();

describe("the CLI", () => {
  it("sets a password read from standard input, never from an argument", async () => {
    await run("user", "create", "--email", "pat@example.com", "--name", "Pat");
    const set = await runWithInput(
      "a password from stdin\n",
      "user",
      "password",
      "--email",
      "Pat@example.com",
    );
    expect(set).toEqual({
      code: 0,
      out: "Set the password of pat@example.com; their sessions are signed out.\n",
      err: "",
    });
    const user = await userByEmail("pat@example.com");
    const stored = await db
      .selectFrom("user_passwords")
      .select("hash")
      .where("user_id", "=", user?.id ?? "")
      .executeTakeFirstOrThrow();
    expect(stored.hash).toMatch(/^\$argon2id\$/);
    expect(await verify(stored.hash, "a password from stdin")).toBe(true);
    expect(await runWithInput("short\n", "user", "password", "--email", "pat@example.com")).toMatchObject({
      code: 1,
      err: "quire: A password needs at least 10 characters.\n",
    });
    expect(await run("user", "password", "--email", "pat@example.com", "--password", "x")).toMatchObject({
      code: 2,
    });
    expect(
      await runWithInput("a password from stdin", "user", "password", "--email", "nobody@example.com"),
    ).toMatchObject({
      code: 1,
    });
  });

  it("creates a user, then a token that authenticates them", async () => {
    const created = await run("user", "create", "--email", "Ada@Example.com", "--name", "Ada");
    expect(created).toMatchObject({ code: 0, err: "" });
    expect(created.out).toContain("ada@example.com");
    const issued = await run("token", "create", "--email", "ada@example.com");
    expect(issued.code).toBe(0);
    const token = issued.out.trim().split("\n").at(-1) ?? "";
    expect((await userForToken(db, token))?.user.email).toBe("ada@example.com");
  });

  it("creates a user as a member of an organization with the given role", async () => {
    const created = await run(
      ...["user", "create", "--email", "grace@example.com", "--name", "Grace"],
      ...["--org", organizationId, "--role", "edit"],
    );
    expect(created.code).toBe(0);
    const user = await userByEmail("grace@example.com");
    const membership = await db
      .selectFrom("memberships")
      .selectAll()
      .where("user_id", "=", user?.id ?? "")
      .executeTakeFirst();
    expect(membership).toMatchObject({ organization_id: organizationId, role: "edit" });
  });

  it("leaves no user behind when the organization does not exist", async () => {
    const refused = await run(
      ...["user", "create", "--email", "lost@example.com", "--name", "Lost"],
      ...["--org", "no-such-org", "--role", "edit"],
    );
    expect(refused).toEqual({ code: 1, out: "", err: "quire: No organization no-such-org\n" });
    expect(await userByEmail("lost@example.com")).toBeUndefined();
  });

  it("refuses a second user with the same email, whatever its case", async () => {
    const refused = await run("user", "create", "--email", "OWNER@example.com", "--name", "Twin");
    expect(refused).toEqual({
      code: 1,
      out: "",
      err: "quire: A user with the email OWNER@example.com already exists\n",
    });
    expect((await userByEmail("owner@example.com"))?.display_name).toBe("Owner");
  });

  it("refuses bad values with a message and code 1", async () => {
    expect((await run("token", "create", "--email", "nobody@example.com")).err).toBe(
      "quire: No user has the email nobody@example.com\n",
    );
    const badRole = await run(
      ...[
        "user",
        "create",
        "--email",
        "b@example.com",
        "--name",
        "B",
        "--org",
        organizationId,
        "--role",
        "owner",
      ],
    );
    expect(badRole.code).toBe(1);
    expect(badRole.err).toContain("--role must be one of");
    expect(await userByEmail("b@example.com")).toBeUndefined();
  });

  it("lists a user's tokens without the tokens themselves, and revokes one", async () => {
    await run("user", "create", "--email", "tok@example.com", "--name", "Tok");
    const first = (await run("token", "create", "--email", "tok@example.com", "--label", "laptop")).out;
    const second = (await run("token", "create", "--email", "tok@example.com", "--label", "ci")).out;
    const secret = first.trim().split("\n").at(-1) ?? "";

    const listed = await run("token", "list", "--email", "tok@example.com");
    expect(listed.code).toBe(0);
    const lines = listed.out
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(lines.map(([, label]) => label)).toEqual(["laptop", "ci"]);
    expect(lines.every(([id, , created]) => id && !Number.isNaN(Date.parse(created ?? "")))).toBe(true);
    expect(listed.out).not.toContain(secret);
    expect(listed.out).not.toContain("quire_");

    const laptopId = lines[0]?.[0] ?? "";
    expect(await run("token", "revoke", "--id", laptopId)).toEqual({
      code: 0,
      out: `Revoked token ${laptopId}.\n`,
      err: "",
    });
    expect(await userForToken(db, secret)).toBeUndefined();
    expect(await userForToken(db, second.trim().split("\n").at(-1) ?? "")).toBeDefined();
    expect((await run("token", "list", "--email", "tok@example.com")).out).not.toContain(laptopId);
  });

  it("says plainly when the token to revoke does not exist", async () => {
    expect(await run("token", "revoke", "--id", "nope")).toEqual({
      code: 1,
      out: "",
      err: "quire: No token nope\n",
    });
  });

  it("prints the usage on --help, -h and with no arguments", async () => {
    for (const help of [["--help"], ["-h"], ["token", "list", "--help"]])
      expect(await run(...help)).toEqual({ code: 0, out: `${USAGE}\n`, err: "" });
    expect(await run()).toEqual({ code: 2, out: "", err: `${USAGE}\n` });
  });

  it("answers usage errors with one line, the usage and code 2", async () => {
    for (const [argv, message] of [
      [["user", "delete", "--email", "x@example.com"], 'Unknown command "user delete"'],
      [["toString"], 'Unknown command "toString"'],
      [["token", "list", "--emial", "x@example.com"], "Unknown option '--emial'."],
      [
        ["token", "list", "--email", "--label", "x"],
        "Option '--email' argument is ambiguous. Did you forget",
      ],
      [["token", "list", "--email"], "Option '--email <value>' argument missing"],
      [["user", "create", "--email", "x@example.com"], "user create needs --name"],
      [["token", "revoke"], "token revoke needs --id"],
      [["user", "create", "--email", "x@example.com", "--name", "X", "--role", "edit"], "--role needs --org"],
    ] as const) {
      const result = await run(...argv);
      expect(result.code).toBe(2);
      expect(result.out).toBe("");
      const [first, blank, ...rest] = result.err.split("\n");
      expect(first?.slice(0, `quire: ${message}`.length)).toBe(`quire: ${message}`);
      expect(first).not.toContain("To specify");
      expect(blank).toBe("");
      expect(rest.join("\n")).toBe(`${USAGE}\n`);
    }
    expect(await userByEmail("x@example.com")).toBeUndefined();
  });
});

describe("the CLI for operators", () => {
  it("creates an organization administered by a user, and lists its members", async () => {
    await run("user", "create", "--email", "grace@example.com", "--name", "Grace");
    const created = await run("organization", "create", "--title", "Navy", "--email", "grace@example.com");
    expect(created.code).toBe(0);
    const organization = /Created organization (\S+) \(Navy\)/.exec(created.out)?.[1] ?? "";
    await run(
      "user",
      "create",
      "--email",
      "ada2@example.com",
      "--name",
      "Ada",
      "--org",
      organization,
      "--role",
      "edit",
    );
    const listed = await run("member", "list", "--org", organization);
    expect(listed.code).toBe(0);
    expect(
      listed.out
        .trim()
        .split("\n")
        .map((line) => line.split("\t").slice(1, 3)),
    ).toEqual([
      ["grace@example.com", "admin"],
      ["ada2@example.com", "edit"],
    ]);
    expect(
      await run("organization", "create", "--title", "X", "--email", "nobody@example.com"),
    ).toMatchObject({
      code: 1,
      err: "quire: No user has the email nobody@example.com\n",
    });
    expect((await run("member", "list", "--org", "nope")).err).toBe("quire: No organization nope\n");
  });

  it("backs up SQLite while it is open, and restores the backup once it is closed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quire-restore-"));
    const backup = join(dir, "backup.sqlite");
    const data = join(dir, "data");
    const emails = async () => {
      const opened = openDatabase({ location: data });
      try {
        return (await opened.selectFrom("users").select("email").orderBy("email").execute()).map(
          (u) => u.email,
        );
      } finally {
        await opened.destroy();
      }
    };
    const cli = async (...argv: string[]) => {
      let out = "";
      let err = "";
      const code = await runCli(argv, {
        database: data,
        secretKeyConfigured: false,
        env: {},
        out: (t) => (out += t),
        err: (t) => (err += t),
        input: async () => "",
      });
      return { code, out, err };
    };
    try {
      // The server creates the database; the CLI only uses it.
      const open = openDatabase({ location: data });
      await migrate(open);
      await cli("user", "create", "--email", "kept@example.com", "--name", "Kept");
      await open.selectFrom("users").select("id").execute();
      const saved = await cli("backup", "--to", backup);
      expect(saved).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^Backed up \d+\.\d MB \(\d+ bytes\) to /),
      });
      expect(saved.out).toContain(`(${statSync(backup).size} bytes) to ${backup}.`);
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect((await cli("restore", "--from", backup)).err).toContain("is open");
      await open.destroy();

      await cli("user", "create", "--email", "later@example.com", "--name", "Later");
      expect(await emails()).toEqual(["kept@example.com", "later@example.com"]);
      expect((await cli("backup", "--to", backup)).err).toContain("exists already");
      expect(await cli("restore", "--from", join(dir, "missing.sqlite"))).toMatchObject({ code: 1 });
      expect(await cli("restore", "--from", backup)).toMatchObject({ code: 0 });
      expect(await emails()).toEqual(["kept@example.com"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sends PostgreSQL users to pg_dump", async () => {
    const result = await runCli(["backup", "--to", "x"], {
      database: "postgres://localhost/quire",
      secretKeyConfigured: false,
      env: {},
      out: () => {},
      err: (text) => expect(text).toContain("pg_dump"),
      input: async () => "",
    });
    expect(result).toBe(1);
  });
});

describe("the CLI's paths and keys", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "quire-cli-paths-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The CLI as `npm run cli` runs it from `dir`: in another directory, told of `dir` by INIT_CWD. */
  const cli = async (env: NodeJS.ProcessEnv, ...argv: string[]) => {
    let out = "";
    let err = "";
    const config = configFromEnv({ ...env, INIT_CWD: dir });
    const code = await runCli(argv, {
      database: config.database,
      secretKeyConfigured: config.secretKey !== undefined,
      env: { ...env, INIT_CWD: dir },
      out: (t) => (out += t),
      err: (t) => (err += t),
      input: async () => "",
    });
    return { code, out, err };
  };

  it("reads relative data and files directories from where the command was typed", () => {
    const config = configFromEnv({ QUIRE_DATA_DIR: "data", INIT_CWD: dir });
    expect(config.database).toBe(join(dir, "data"));
    expect(config.files.directory).toBe(join(dir, "data", "files"));
    expect(configFromEnv({ QUIRE_FILES_DIR: "blobs", INIT_CWD: dir }).files.directory).toBe(
      join(dir, "blobs"),
    );
    expect(configFromEnv({ QUIRE_DATA_DIR: "/srv/quire", INIT_CWD: dir }).database).toBe("/srv/quire");
    expect(configFromEnv({ INIT_CWD: dir }).database).toBe(join(dir, "data"));
  });

  it("creates no database but with restore: other commands on an empty directory fail", async () => {
    const result = await cli({ QUIRE_DATA_DIR: "nowhere" }, "member", "list", "--org", "x");
    expect(result).toEqual({
      code: 1,
      out: "",
      err: `quire: No Quire database in ${join(dir, "nowhere")}: is it the server's data directory?\n`,
    });
    expect(existsSync(join(dir, "nowhere"))).toBe(false);
    expect((await cli({ QUIRE_DATA_DIR: "nowhere" }, "backup", "--to", "b.sqlite")).code).toBe(1);
    expect(existsSync(join(dir, "b.sqlite"))).toBe(false);
  });

  it("backs up the generated key with the database, and a restore puts both back", async () => {
    const env = { QUIRE_DATA_DIR: "keyed" };
    const data = join(dir, "keyed");
    const opened = openDatabase({ location: data });
    await migrate(opened);
    const key = await resolveSecretKey({
      configured: undefined,
      db: opened,
      location: data,
      logger: { info() {} },
    });
    await opened.destroy();
    await cli(env, "user", "create", "--email", "keyed@example.com", "--name", "Keyed");

    expect((await cli(env, "backup", "--to", "keyed.sqlite")).out).toContain(
      `to ${join(dir, "keyed.sqlite")}.`,
    );
    expect(readFileSync(join(dir, "keyed.sqlite")).includes(key)).toBe(true);

    // Another machine: an empty directory, restored from the backup.
    const restored = await cli({ QUIRE_DATA_DIR: "elsewhere" }, "restore", "--from", "keyed.sqlite");
    expect(restored).toEqual({
      code: 0,
      out: `Restored ${join(dir, "keyed.sqlite")} and its secret key; start the server.\n`,
      err: "",
    });
    const file = join(dir, "elsewhere", "secret-key");
    expect(readFileSync(file, "utf8")).toBe(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The database itself does not keep the key.
    expect(readFileSync(join(dir, "elsewhere", "quire.sqlite")).includes(key)).toBe(false);
    expect(
      (await cli({ QUIRE_DATA_DIR: "elsewhere" }, "token", "list", "--email", "keyed@example.com")).code,
    ).toBe(0);
  });

  it("writes nothing about keys when QUIRE_SECRET_KEY is set", async () => {
    const configured = { QUIRE_DATA_DIR: "configured", QUIRE_SECRET_KEY: "k".repeat(32) };
    await cli({ QUIRE_DATA_DIR: "configured" }, "restore", "--from", "keyed.sqlite");
    const generated = readFileSync(join(dir, "configured", "secret-key"), "utf8");
    expect((await cli(configured, "backup", "--to", "plain.sqlite")).code).toBe(0);
    expect(readFileSync(join(dir, "plain.sqlite")).includes(generated)).toBe(false);

    expect(
      await cli({ ...configured, QUIRE_DATA_DIR: "fresh" }, "restore", "--from", "keyed.sqlite"),
    ).toMatchObject({
      code: 0,
      out: `Restored ${join(dir, "keyed.sqlite")}; start the server.\n`,
    });
    expect(existsSync(join(dir, "fresh", "secret-key"))).toBe(false);
    expect(readFileSync(join(dir, "fresh", "quire.sqlite")).includes(generated)).toBe(false);
  });
});
