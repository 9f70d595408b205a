import { existsSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../commands/create-organization.js";
import { timeOrderedIds } from "../context.js";
import { keysetList } from "../http/paging.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { TestClock } from "../testing/harness.js";
import { createUser } from "../users/store.js";
import { areaMigrations } from "./area-migrations.js";
import { type Db, migrate } from "./database.js";

/** Storage checks on the project's database (see src/testing/database.ts). */
describe(`storage on ${testDatabaseKind}`, () => {
  let database: TestDatabase;
  let db: Db;
  const clock = new TestClock();
  const services = { clock, ids: timeOrderedIds(clock) };

  beforeAll(async () => {
    database = await openTestDatabase();
    ({ db } = database);
    await migrate(db);
  });
  afterAll(() => database.close());

  it("applies migrations once and records them", async () => {
    await migrate(db);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    const found = Object.keys(await areaMigrations().getMigrations()).sort();
    expect(applied.rows.map((r) => r.name)).toEqual(found);
  });

  it.runIf(testDatabaseKind === "sqlite")("keeps a SQLite file in WAL mode", async () => {
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    expect(rows[0]?.journal_mode).toBe("wal");
    expect(existsSync(join(database.location, "quire.sqlite"))).toBe(true);
  });

  it("rolls back a multi-row change that fails half way", async () => {
    const owner = await createUser(db, services, {
      email: "owner@example.com",
      displayName: "Owner",
    });
    await expect(createOrganization(db, services, "no-such-user", { title: "Doomed" })).rejects.toThrow();
    const orgs = await db.selectFrom("organizations").select("id").where("title", "=", "Doomed").execute();
    expect(orgs).toHaveLength(0);
    await createOrganization(db, services, owner.id, { title: "Kept" });
    const kept = await db.selectFrom("organizations").select("id").where("title", "=", "Kept").execute();
    expect(kept).toHaveLength(1);
  });

  it("pages by a compound key without repeating or skipping rows", async () => {
    const owner = await createUser(db, services, {
      email: "pager@example.com",
      displayName: "Pager",
    });
    const org = await createOrganization(db, services, owner.id, { title: "Paged" });
    const now = clock.now().toISOString();
    // Positions collide on purpose: the id breaks ties.
    for (const [i, position] of [2, 1, 1, 0, 2].entries()) {
      await db
        .insertInto("collections")
        .values({
          id: `c${i}`,
          organization_id: org.id,
          parent_id: null,
          title: `C${i}`,
          description: null,
          default_level_inherited: 0,
          default_level: "read",
          position,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const listByPosition = keysetList(
      (db, args: { organizationId: string }) =>
        db
          .selectFrom("collections")
          .select(["id", "position"])
          .where("organization_id", "=", args.organizationId),
      { position: "number", id: "string" },
    );
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const result = await listByPosition(
        db,
        { organizationId: org.id },
        { limit: 2, ...(page && { page }) },
      );
      expect(result.count).toBe(5);
      seen.push(...result.rows.map((r) => r.id));
      page = result.next?.page;
    } while (page);
    expect(seen).toEqual(["c3", "c1", "c2", "c0", "c4"]);
  });
});
