import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../db/database.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { generateSecretKey, resolveSecretKey } from "./secret-key.js";

/** A logger that keeps what it is told, to check what a generated key logs. */
function recorder() {
  const lines: unknown[][] = [];
  return { lines, logger: { info: (...args: unknown[]) => lines.push(args) } as never };
}

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await migrate(t.db);
});
afterAll(() => t.close());

describe("resolveSecretKey", () => {
  it("uses QUIRE_SECRET_KEY when set, and then writes nothing", async () => {
    const configured = generateSecretKey();
    const dataDir = mkdtempSync(join(tmpdir(), "quire-key-"));
    try {
      expect(
        await resolveSecretKey({ configured, db: t.db, location: dataDir, logger: recorder().logger }),
      ).toBe(configured);
      expect(readdirSync(dataDir)).toEqual([]);
      const rows = await t.db.selectFrom("server_secrets").selectAll().execute();
      expect(rows).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(testDatabaseKind === "sqlite")(
    "on SQLite, generates a key into a file of the data directory that only its user reads, then reuses it",
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "quire-key-"));
      try {
        const { lines, logger } = recorder();
        // Started at once, every caller ends with the same key: one file, no temporary one left.
        const keys = await Promise.all(
          Array.from({ length: 8 }, () =>
            resolveSecretKey({ configured: undefined, db: t.db, location: dataDir, logger }),
          ),
        );
        const [key] = keys;
        expect(new Set(keys).size).toBe(1);
        expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(readdirSync(dataDir)).toEqual(["secret-key"]);
        const file = join(dataDir, "secret-key");
        expect(readFileSync(file, "utf8")).toBe(key);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        // Told once where the key is, never the key itself.
        expect(lines).toEqual([[{ file }, expect.stringContaining("Generated a secret key")]]);
        expect(JSON.stringify(lines)).not.toContain(key);

        const again = recorder();
        expect(
          await resolveSecretKey({
            configured: undefined,
            db: t.db,
            location: dataDir,
            logger: again.logger,
          }),
        ).toBe(key);
        expect(again.lines).toEqual([]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(testDatabaseKind === "postgres")(
    "on PostgreSQL, keeps one key in the database that every process shares",
    async () => {
      // A second pool on the same schema, as another server process would have.
      const other = openDatabase({ location: t.location });
      try {
        const { lines, logger } = recorder();
        const keys = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            resolveSecretKey({
              configured: undefined,
              db: i % 2 ? other : t.db,
              location: t.location,
              logger,
            }),
          ),
        );
        const [key] = keys;
        expect(new Set(keys).size).toBe(1);
        expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const rows = await t.db.selectFrom("server_secrets").selectAll().execute();
        expect(rows).toEqual([{ name: "secret_key", value: key }]);
        expect(lines).toHaveLength(1);
        expect(JSON.stringify(lines)).not.toContain(key);
        expect(
          await resolveSecretKey({ configured: undefined, db: other, location: t.location, logger }),
        ).toBe(key);
        expect(lines).toHaveLength(1);
      } finally {
        await other.destroy();
      }
    },
  );
});
