import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timeOrderedIds } from "../context.js";
import { keysetList } from "../http/paging.js";
import { createOrganization } from "../organizations/store.js";
import { TestClock } from "../testing/harness.js";
import { createUser } from "../users/store.js";
import { type Db, migrate, openDatabase } from "./database.js";

const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;

/** The same storage checks, on a SQLite file and (when configured) on PostgreSQL. */
function storageSuite(name: string, open: () => Promise<{ db: Db; cleanup: () => Promise<void> }>) {
  describe(name, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    const clock = new TestClock();
    const services = { clock, ids: timeOrderedIds(clock) };

    beforeAll(async () => {
      ({ db, cleanup } = await open());
      await migrate(db);
    });
    afterAll(() => cleanup());

    it("applies migrations once and records them", async () => {
      await migrate(db);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        db,
      );
      expect(applied.rows.map((r) => r.name)).toEqual([
        "0001_initial",
        "202611221900_space_read_path",
        "202611221901_guest_memberships",
      ]);
    });

    it("rolls back a multi-row change that fails half way", async () => {
      const owner = await createUser(db, services, {
        email: `owner-${name}@example.com`,
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
        email: `pager-${name}@example.com`,
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
}

storageSuite("SQLite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "quire-storage-"));
  const db = openDatabase({ location: dir });
  return {
    db,
    cleanup: async () => {
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      expect(rows[0]?.journal_mode).toBe("wal");
      expect(existsSync(join(dir, "quire.sqlite"))).toBe(true);
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

if (postgresUrl) {
  storageSuite("PostgreSQL", async () => {
    // A database of its own per run, so that runs never see each other's rows.
    const name = `quire_test_${process.pid}_${Date.now()}`;
    const admin = openDatabase({ location: postgresUrl });
    await sql`create database ${sql.id(name)}`.execute(admin);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const db = openDatabase({ location: url.toString() });
    return {
      db,
      cleanup: async () => {
        await db.destroy();
        await sql`drop database ${sql.id(name)}`.execute(admin);
        await admin.destroy();
      },
    };
  });
} else {
  describe.skip("PostgreSQL (set QUIRE_TEST_DATABASE_URL to run)", () => {
    it("runs the storage suite on PostgreSQL", () => {});
  });
}
