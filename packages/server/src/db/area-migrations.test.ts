import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase, testDatabaseKind } from "../testing/database.js";
import { areaMigrations } from "./area-migrations.js";
import { migrate } from "./database.js";

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

/** A source root holding the given files, by path relative to it. */
function sourceRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "quire-migrations-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) addFile(root, path, text);
  return root;
}

function addFile(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const creating = (table: string) =>
  `export async function up(db) { await db.schema.createTable("${table}").addColumn("id", "text").execute(); }\n`;

describe("areaMigrations", () => {
  it("finds the migrations of every area in the package", async () => {
    const migrations = await areaMigrations().getMigrations();
    expect(Object.keys(migrations)).toEqual(
      expect.arrayContaining([
        "0001_initial",
        "202611221900_space_read_path",
        "202611221901_guest_memberships",
      ]),
    );
    for (const migration of Object.values(migrations)) expect(migration.up).toBeTypeOf("function");
  });

  it("finds migrations named <UTC YYYYMMDDHHMM>_<snake_case>, but the first", async () => {
    const names = Object.keys(await areaMigrations().getMigrations()).filter(
      (name) => name !== "0001_initial",
    );
    for (const name of names) {
      const [, year, month, day, hour, minute] =
        /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)_[a-z0-9]+(?:_[a-z0-9]+)*$/.exec(name) ?? [];
      const iso = `${year}-${month}-${day}T${hour}:${minute}:00.000Z`;
      // An invalid date, such as month 13, turns into null.
      expect(new Date(iso).toJSON(), name).toBe(iso);
    }
  });

  it("skips tests, declarations, source maps and files outside migrations folders", async () => {
    const root = sourceRoot({
      "spaces/migrations/202601010000_kept.ts": creating("kept"),
      "spaces/migrations/202601010000_kept.test.ts": "",
      "spaces/migrations/202601010000_kept.d.ts": "",
      "spaces/migrations/202601010000_kept.js.map": "",
      "spaces/202601010001_stray.ts": creating("stray"),
    });
    expect(Object.keys(await areaMigrations(root).getMigrations())).toEqual(["202601010000_kept"]);
  });

  it("refuses two migrations of one name in different areas", async () => {
    const root = sourceRoot({
      "spaces/migrations/202601010000_counters.ts": creating("a"),
      "collections/migrations/202601010000_counters.ts": creating("b"),
    });
    await expect(areaMigrations(root).getMigrations()).rejects.toThrow(
      /Two migrations are named 202601010000_counters: .*migrations.*202601010000_counters\.ts and /,
    );
  });

  it("refuses a migration without an up function", async () => {
    const root = sourceRoot({ "spaces/migrations/202601010000_empty.ts": "export const nothing = 1;\n" });
    await expect(areaMigrations(root).getMigrations()).rejects.toThrow(
      /202601010000_empty\.ts exports no up/,
    );
  });

  it(`applies one that sorts before those already applied, on ${testDatabaseKind}`, async () => {
    const root = sourceRoot({ "spaces/migrations/202601020000_later.ts": creating("later_things") });
    const { db, close } = await openTestDatabase();
    try {
      await migrate(db, areaMigrations(root));
      // A branch written earlier, merged after the other was deployed.
      addFile(root, "collections/migrations/202601010000_earlier.ts", creating("earlier_things"));
      await migrate(db, areaMigrations(root));
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        db,
      );
      expect(applied.rows.map((row) => row.name)).toEqual(["202601010000_earlier", "202601020000_later"]);
      await sql`select id from earlier_things`.execute(db);
    } finally {
      await close();
    }
  });
});
