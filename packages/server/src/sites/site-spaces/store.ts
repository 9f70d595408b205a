import { sql } from "kysely";
import { type Flag, flag, isSet } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import type { SpaceTable } from "../../db/schema.js";
import { badRequest } from "../../http/errors.js";
import { keysetList } from "../../http/paging.js";
import { type OrganizationRole, roleOnContent } from "../../policy.js";
import { lockSite } from "../store.js";
import { generatedPath, siteSpaceShown } from "../structure.js";
import type { SiteSpaceTable } from "../tables.js";

/**
 * Every site space of a container (a section, or the site's root when null), in order, shown or
 * not: positions and paths are decided among all of them, so a restored space finds its place free.
 */
export function containerRows(db: Db, siteId: string, sectionId: string | null): Promise<SiteSpaceTable[]> {
  return db
    .selectFrom("site_spaces")
    .selectAll()
    .where("site_id", "=", siteId)
    .where((eb) => (sectionId === null ? eb("section_id", "is", null) : eb("section_id", "=", sectionId)))
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/**
 * The space a body names, to link into a site of `organizationId`: 400 unless it is a space of that
 * organization, not deleted, that the caller can read.
 */
export async function linkableSpace(
  db: Db,
  organizationId: string,
  role: OrganizationRole,
  spaceId: string,
): Promise<SpaceTable> {
  const space = await db
    .selectFrom("spaces")
    .selectAll()
    .where("id", "=", spaceId)
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!space || roleOnContent(role, space.default_level) === undefined)
    throw badRequest(`Space "${spaceId}" does not exist in this organization.`);
  return space;
}

/**
 * Links a space at the end of a container, with a path made from its title (its own in the site
 * when given); the container's default when it has none. 409 is the caller's to decide (a space
 * already in the container).
 */
export async function linkSpace(
  tx: Db,
  link: {
    id: string;
    siteId: string;
    sectionId: string | null;
    space: SpaceTable;
    now: string;
    title?: string;
    draft?: boolean;
  },
): Promise<SiteSpaceTable> {
  const siblings = await containerRows(tx, link.siteId, link.sectionId);
  const row: SiteSpaceTable = {
    id: link.id,
    site_id: link.siteId,
    section_id: link.sectionId,
    space_id: link.space.id,
    path: generatedPath(
      link.title ?? link.space.title,
      "space",
      siblings.map((s) => s.path),
    ),
    condition: null,
    is_default: flag(!siblings.some((s) => isSet(s.is_default))),
    draft: flag(link.draft ?? false),
    title: link.title ?? null,
    position: (siblings.at(-1)?.position ?? -1) + 1,
    created_at: link.now,
    updated_at: link.now,
  };
  await tx.insertInto("site_spaces").values(row).execute();
  return row;
}

/** Makes `siteSpaceId` the one default of its container. */
export async function setDefaultSiteSpace(
  tx: Db,
  siteId: string,
  sectionId: string | null,
  siteSpaceId: string,
): Promise<void> {
  await tx
    .updateTable("site_spaces")
    .set({ is_default: sql<Flag>`case when id = ${siteSpaceId} then 1 else 0 end` })
    .where("site_id", "=", siteId)
    .where((eb) => (sectionId === null ? eb("section_id", "is", null) : eb("section_id", "=", sectionId)))
    .execute();
}

/** When `removed` was its container's default, the site space after it becomes default (or the last one). */
export async function passDefaultOn(tx: Db, removed: SiteSpaceTable): Promise<void> {
  if (!isSet(removed.is_default)) return;
  const remaining = await containerRows(tx, removed.site_id, removed.section_id);
  const next = remaining.find((row) => row.position > removed.position) ?? remaining.at(-1);
  if (next) await setDefaultSiteSpace(tx, removed.site_id, removed.section_id, next.id);
}

/**
 * Removes the site spaces of spaces that left their sites' organization (a transfer): sites are
 * per organization. Each site's default passes on as when a site space is deleted.
 */
export async function unlinkSpaces(tx: Db, spaceIds: readonly string[]): Promise<void> {
  const rows = await tx
    .selectFrom("site_spaces")
    .selectAll()
    .where("space_id", "in", spaceIds)
    .orderBy("id")
    .execute();
  for (const row of rows) {
    await lockSite(tx, row.site_id);
    await tx.deleteFrom("site_spaces").where("id", "=", row.id).execute();
    await passDefaultOn(tx, row);
  }
}

/** Shown site spaces of a site with the keys of structure order: section, place in it, position. */
const inStructureOrder = (db: Db, siteId: string) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom("site_spaces as ss")
        .leftJoin("site_sections as sec", "sec.id", "ss.section_id")
        .leftJoin("site_section_groups as g", "g.id", "sec.group_id")
        .select([
          "ss.id",
          "ss.is_default",
          "ss.position",
          sql<number>`coalesce(g.position, sec.position, -1)`.as("top_position"),
          sql<number>`case when sec.group_id is null then -1 else sec.position end`.as("inner_position"),
        ])
        .where("ss.site_id", "=", siteId)
        .where(siteSpaceShown("ss"))
        .as("ordered"),
    )
    .selectAll();

const STRUCTURE_ORDER = {
  top_position: "number",
  inner_position: "number",
  position: "number",
  id: "string",
} as const;

/** Ids of the shown site spaces of a site, in structure order. */
export const listSiteSpaceIds = keysetList(
  (db, args: { siteId: string }) => inStructureOrder(db, args.siteId),
  STRUCTURE_ORDER,
);

/** Ids of the shown site spaces of a site that are (1) or are not (0) their container's default. */
export const listSiteSpaceIdsByDefault = keysetList(
  (db, args: { siteId: string; isDefault: Flag }) =>
    inStructureOrder(db, args.siteId).where("is_default", "=", args.isDefault),
  STRUCTURE_ORDER,
);
