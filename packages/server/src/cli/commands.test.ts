import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { userForToken } from "../auth/tokens.js";
import { migrate, openDatabase } from "../db/database.js";
import { runCli } from "./commands.js";

const database = mkdtempSync(join(tmpdir(), "quire-cli-"));
afterAll(() => rmSync(database, { recursive: true, force: true }));

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { database, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe("the CLI", () => {
  it("creates a user, then a token that authenticates them", async () => {
    const created = await run("user", "create", "--email", "Ada@Example.com", "--name", "Ada");
    expect(created).toMatchObject({ code: 0, err: "" });
    expect(created.out).toContain("ada@example.com");
    const issued = await run("token", "create", "--email", "ada@example.com");
    expect(issued.code).toBe(0);
    const token = issued.out.trim().split("\n").at(-1) ?? "";
    const db = openDatabase({ location: database });
    await migrate(db);
    expect((await userForToken(db, token))?.email).toBe("ada@example.com");
    await db.destroy();
  });

  it("refuses bad input with a message and a non-zero code", async () => {
    expect((await run("user", "delete", "--email", "x@example.com")).code).toBe(2);
    expect((await run("token", "create", "--email", "nobody@example.com")).err).toContain("No user");
    const badRole = await run("user", "create", "--email", "b@example.com", "--name", "B", "--role", "owner");
    expect(badRole.code).toBe(1);
    expect(badRole.err).toContain("--role");
  });
});
