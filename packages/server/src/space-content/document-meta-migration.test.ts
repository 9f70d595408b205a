import { sql } from "kysely";
import type { Migration, MigrationProvider } from "kysely/migration";
import { describe, expect, it } from "vitest";
import { systemClock, timeOrderedIds } from "../context.js";
import { areaMigrations } from "../db/area-migrations.js";
import { migrate } from "../db/database.js";
import { withoutEvents } from "../events/record.js";
import { insertSpace } from "../spaces/index.js";
import { openTestDatabase } from "../testing/database.js";

const META_MIGRATION = "202611271700_document_meta";

/** The area migrations up to, and without, `last`. */
const migrationsBefore = (last: string): MigrationProvider => ({
  async getMigrations() {
    const all = await areaMigrations().getMigrations();
    return Object.fromEntries(Object.entries(all).filter(([name]) => name < last)) as Record<
      string,
      Migration
    >;
  },
});

describe("the page metadata migration", () => {
  it("reads the front matter of the bodies written before it", async () => {
    const { db, close } = await openTestDatabase();
    try {
      await migrate(db, migrationsBefore(META_MIGRATION));
      const context = { clock: systemClock, ids: timeOrderedIds() };
      // Without events, whose tables are newer than this schema.
      const space = await withoutEvents(async () => {
        // The organization as that schema has it (today's code writes columns added since).
        const organization = { id: context.ids.next() };
        const now = new Date().toISOString();
        await sql`insert into organizations (id, title, type, email_domains, default_role, sso, ai,
          invite_links, plan, trial_status, created_at, updated_at) values (${organization.id}, 'Old',
          'business', '[]', 'read', 0, 0, 1, 'free_2024', 'notapplicable', ${now}, ${now})`.execute(db);
        return insertSpace(db, context, {
          organization_id: organization.id,
          parent_id: null,
          title: "Old",
          emoji: "",
          visibility: "private",
          edit_mode: "live",
          default_level: "read",
          position: 0,
        });
      });
      const body = "---\ndescription: Old\nlayout:\n  title:\n    visible: false\n---\n\n# Old\n";
      await sql`insert into content_documents (space_id, hash, markdown) values
        (${space.id}, 'with', ${body}), (${space.id}, 'without', 'No front matter.')`.execute(db);
      await migrate(db);
      const rows = await db
        .selectFrom("content_documents")
        .select(["hash", "meta"])
        .where("space_id", "=", space.id)
        .orderBy("hash")
        .execute();
      expect(rows.map(({ hash, meta }) => ({ hash, meta: meta === null ? null : JSON.parse(meta) }))).toEqual(
        [
          { hash: "with", meta: { description: "Old", layout: { title: { visible: false } } } },
          { hash: "without", meta: null },
        ],
      );
    } finally {
      await close();
    }
  });
});
