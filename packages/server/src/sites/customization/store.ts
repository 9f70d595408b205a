import type { Schema } from "@quire/api-types";
import { fromJson, toJson } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import { notFound } from "../../http/errors.js";
import { siteSpaceShown } from "../structure.js";
import type { SiteSpaceCustomizationTable } from "../tables.js";
import {
  type CustomizationOverride,
  type CustomizationSettings,
  DEFAULT_CUSTOMIZATION,
  settingsOf,
  withOverride,
} from "./settings.js";

/** The later of two timestamps (ISO 8601 text in UTC compares as text); undefined when both are. */
const later = (a: string | undefined, b: string | undefined) => (a === undefined || (b ?? "") > a ? b : a);

/** Settings with `updatedAt`, the contract's shape; the defaults, without it, when never set. */
const dated = (settings: CustomizationSettings, updatedAt: string | undefined): CustomizationSettings =>
  updatedAt === undefined ? settings : { ...settings, updatedAt };

/** A site's customization: as last set, or GitBook's defaults (without `updatedAt`) until then. */
export async function siteCustomization(db: Db, siteId: string): Promise<CustomizationSettings> {
  const row = await db
    .selectFrom("site_customizations")
    .select(["settings", "updated_at"])
    .where("site_id", "=", siteId)
    .executeTakeFirst();
  // Read through `settingsOf`: settings stored before a field existed answer its default.
  return row ? dated(settingsOf(fromJson(row.settings)), row.updated_at) : DEFAULT_CUSTOMIZATION;
}

/** Sets a site's customization, replacing the one it had. */
export async function replaceSiteCustomization(
  db: Db,
  siteId: string,
  settings: CustomizationSettings,
  now: string,
): Promise<void> {
  const json = toJson(settings);
  await db
    .insertInto("site_customizations")
    .values({ site_id: siteId, settings: json, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("site_id").doUpdateSet({ settings: json, updated_at: now }))
    .execute();
}

/** The site space `siteSpaceId` of the site, while it is shown (as every site space operation): else 404. */
export async function assertSiteSpace(db: Db, siteId: string, siteSpaceId: string): Promise<void> {
  const found = await db
    .selectFrom("site_spaces")
    .select("id")
    .where("id", "=", siteSpaceId)
    .where("site_id", "=", siteId)
    .where(siteSpaceShown("site_spaces"))
    .executeTakeFirst();
  if (!found) throw notFound("Site space");
}

function overrideRow(db: Db, siteSpaceId: string): Promise<SiteSpaceCustomizationTable | undefined> {
  return db
    .selectFrom("site_space_customizations")
    .selectAll()
    .where("site_space_id", "=", siteSpaceId)
    .executeTakeFirst();
}

/** The override of a site space: none (`{}`) when it has none. */
export async function siteSpaceOverride(db: Db, siteSpaceId: string): Promise<CustomizationOverride> {
  const row = await overrideRow(db, siteSpaceId);
  return row ? fromJson(row.override) : {};
}

/** Sets the override of a site space of `siteId`, replacing the one it had. */
export async function saveSiteSpaceOverride(
  db: Db,
  ids: { siteId: string; siteSpaceId: string },
  override: CustomizationOverride,
  now: string,
): Promise<void> {
  const json = toJson(override);
  await db
    .insertInto("site_space_customizations")
    .values({
      site_space_id: ids.siteSpaceId,
      site_id: ids.siteId,
      override: json,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("site_space_id").doUpdateSet({ override: json, updated_at: now }))
    .execute();
}

export async function deleteSiteSpaceOverride(db: Db, siteSpaceId: string): Promise<void> {
  await db.deleteFrom("site_space_customizations").where("site_space_id", "=", siteSpaceId).execute();
}

/** Site settings with an override applied; `updatedAt` is the later of the two changes. */
function effective(site: CustomizationSettings, row: SiteSpaceCustomizationTable): CustomizationSettings {
  const { updatedAt: _site, ...settings } = withOverride(site, fromJson(row.override));
  return dated(settings, later(site.updatedAt, row.updated_at));
}

/**
 * The customization a site space shows (its site's when it has no override), or the site's when
 * `siteSpaceId` is undefined. What a published page is rendered with.
 */
export async function customizationOf(
  db: Db,
  siteId: string,
  siteSpaceId?: string,
): Promise<CustomizationSettings> {
  const [site, row] = await Promise.all([
    siteCustomization(db, siteId),
    siteSpaceId === undefined ? undefined : overrideRow(db, siteSpaceId),
  ]);
  return row && row.site_id === siteId ? effective(site, row) : site;
}

/**
 * A site's customization and, by site space id, the settings of each of `siteSpaceIds` that has an
 * override (`PublishedSiteCustomizations`).
 */
export async function siteCustomizations(
  db: Db,
  siteId: string,
  siteSpaceIds: readonly string[],
): Promise<Schema<"PublishedSiteCustomizations">> {
  const [site, rows] = await Promise.all([
    siteCustomization(db, siteId),
    db.selectFrom("site_space_customizations").selectAll().where("site_id", "=", siteId).execute(),
  ]);
  const wanted = new Set(siteSpaceIds);
  const shown = rows.filter((row) => wanted.has(row.site_space_id));
  const siteSpaces = Object.fromEntries(shown.map((row) => [row.site_space_id, effective(site, row)]));
  // The generated type of a contract's record is `Record<string, never>` (openapi-typescript reads no
  // `unevaluatedProperties`); the response check validates each entry against the contract.
  return { site, siteSpaces: siteSpaces as Record<string, never> };
}
