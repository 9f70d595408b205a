import type { Kysely } from "kysely";

/**
 * The one-time links mailed to people invited by email. Each goes with the membership the invitation
 * made: removing the member revokes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("email_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addForeignKeyConstraint(
      "email_invitations_membership",
      ["organization_id", "user_id"],
      "memberships",
      ["organization_id", "user_id"],
      (c) => c.onDelete("cascade"),
    )
    .execute();
  await db.schema
    .createIndex("email_invitations_by_membership")
    .on("email_invitations")
    .columns(["organization_id", "user_id"])
    .execute();
}
