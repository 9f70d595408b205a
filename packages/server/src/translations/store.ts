import type { Db } from "../db/database.js";
import { keysetList } from "../http/paging.js";
import type { TranslationSettingsTable } from "./tables.js";

/** The translation settings of an organization, oldest first. */
export const listTranslationSettings = keysetList(
  (db, args: { organizationId: string }) =>
    db.selectFrom("translation_settings").selectAll().where("organization_id", "=", args.organizationId),
  { created_at: "string", id: "string" },
);

export async function insertTranslationSettings(
  db: Db,
  row: TranslationSettingsTable,
): Promise<TranslationSettingsTable> {
  await db.insertInto("translation_settings").values(row).execute();
  return row;
}

/** The settings, if they belong to the organization: an id of another organization finds nothing. */
export function findTranslationSettings(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TranslationSettingsTable | undefined> {
  return db
    .selectFrom("translation_settings")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}

/** Replaces the given columns and moves `updated_at`; undefined when the organization has no such settings. */
export function updateTranslationSettings(
  db: Db,
  organizationId: string,
  id: string,
  changes: Pick<TranslationSettingsTable, "title"> & Partial<Pick<TranslationSettingsTable, "languages">>,
  now: string,
): Promise<TranslationSettingsTable | undefined> {
  return db
    .updateTable("translation_settings")
    .set({ ...changes, updated_at: now })
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .returningAll()
    .executeTakeFirst();
}

/** Whether the organization had such settings to delete. */
export async function deleteTranslationSettings(
  db: Db,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom("translation_settings")
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return numDeletedRows > 0n;
}
