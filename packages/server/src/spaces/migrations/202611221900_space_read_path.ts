import { type Kysely, sql } from "kysely";

/**
 * Reading spaces without counting rows. Activity counters on the space row: open comments of the
 * space itself (not of its change requests) and change requests in all and by status; writers move
 * them in the same transaction as their cause (`adjustSpaceActivity`), and existing rows are
 * counted here. Partial indexes over the spaces that are not deleted, which lists page through and
 * count without reading the rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    "open_comments",
    "change_requests",
    "open_change_requests",
    "draft_change_requests",
  ]) {
    await db.schema
      .alterTable("spaces")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await sql`
    update spaces set
      open_comments = (select count(*) from comments c
        where c.space_id = spaces.id and c.change_request_id is null and c.status = 'open'),
      change_requests = (select count(*) from change_requests r where r.space_id = spaces.id),
      open_change_requests = (select count(*) from change_requests r
        where r.space_id = spaces.id and r.status = 'open'),
      draft_change_requests = (select count(*) from change_requests r
        where r.space_id = spaces.id and r.status = 'draft')
  `.execute(db);
  await db.schema
    .createIndex("live_spaces_by_org")
    .on("spaces")
    .columns(["organization_id", "id"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("live_spaces_by_parent")
    .on("spaces")
    .columns(["parent_id", "position", "id"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
}
