import { sql } from "kysely";
import { type Flag, flag } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import type { SpaceTable } from "../../db/schema.js";
import { notFound } from "../../http/errors.js";
import { keysetList } from "../../http/paging.js";
import { linkSpace } from "../site-spaces/store.js";
import { generatedPath, type SiteStructure, topEnd } from "../structure.js";
import type { SiteSectionGroupTable, SiteSectionTable, SiteTable } from "../tables.js";

export function sectionIn(structure: SiteStructure, sectionId: string): SiteSectionTable {
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw notFound("Site section");
  return section;
}

export function groupIn(structure: SiteStructure, groupId: string) {
  const group = structure.groups.get(groupId);
  if (!group) throw notFound("Site section group");
  return group;
}

/** Makes `sectionId` the one default section of the site. */
export async function setDefaultSection(tx: Db, siteId: string, sectionId: string): Promise<void> {
  await tx
    .updateTable("site_sections")
    .set({ is_default: sql<Flag>`case when id = ${sectionId} then 1 else 0 end` })
    .where("site_id", "=", siteId)
    .execute();
}

/** A section should have a title of 2 characters or more; a space's may be shorter. */
const SECTION_TITLE_MIN = 2;

/** What a new section is besides its title: its icon, whether a draft, the group it goes in. */
export interface SectionOptions {
  icon?: string | null;
  draft?: boolean;
  group?: SiteSectionGroupTable;
}

/** The position after every section of `group`. */
export const groupEnd = (structure: SiteStructure, groupId: string) =>
  (structure.sections.filter((s) => s.group_id === groupId).at(-1)?.position ?? -1) + 1;

/**
 * Adds a section at the end of the site's top level (or of its group), with a path made from its
 * title; the default when it is the site's first section.
 */
async function insertSection(
  tx: Db,
  structure: SiteStructure,
  section: { id: string; title: string; now: string; isDefault: boolean } & SectionOptions,
): Promise<SiteSectionTable> {
  const title = section.title.trim().length >= SECTION_TITLE_MIN ? section.title : "Untitled section";
  const { group } = section;
  const row: SiteSectionTable = {
    id: section.id,
    site_id: structure.site.id,
    group_id: group?.id ?? null,
    title,
    description: null,
    path: generatedPath(
      title,
      "section",
      structure.sections.map((s) => s.path),
    ),
    condition: null,
    icon: section.icon ?? null,
    is_default: flag(section.isDefault),
    draft: flag(section.draft ?? false),
    position: group ? groupEnd(structure, group.id) : topEnd(structure),
    created_at: section.now,
    updated_at: section.now,
  };
  await tx.insertInto("site_sections").values(row).execute();
  structure.sections.push(row);
  if (!group) structure.top.push({ kind: "site-section", id: row.id, position: row.position });
  return row;
}

/**
 * Adds a section showing `space` to a site (behaviour §4.4). The first section of a site whose
 * site spaces sit at its root first gathers them into a default section named after the site, as
 * GitBook's sites start with one section named after the site.
 */
export async function addSection(
  tx: Db,
  structure: SiteStructure,
  request: { space: SpaceTable; title: string; now: string; nextId: () => string } & SectionOptions,
): Promise<SiteSectionTable> {
  const site: SiteTable = structure.site;
  const rootRows = await tx
    .selectFrom("site_spaces")
    .select("id")
    .where("site_id", "=", site.id)
    .where("section_id", "is", null)
    .execute();
  if (structure.sections.length === 0 && rootRows.length > 0) {
    const gathering = await insertSection(tx, structure, {
      id: request.nextId(),
      title: site.title,
      now: request.now,
      isDefault: true,
    });
    await tx
      .updateTable("site_spaces")
      .set({ section_id: gathering.id })
      .where("site_id", "=", site.id)
      .where("section_id", "is", null)
      .execute();
  }
  const section = await insertSection(tx, structure, {
    id: request.nextId(),
    title: request.title,
    now: request.now,
    isDefault: structure.sections.length === 0,
    ...(request.icon !== undefined && { icon: request.icon }),
    ...(request.draft !== undefined && { draft: request.draft }),
    ...(request.group !== undefined && { group: request.group }),
  });
  await linkSpace(tx, {
    id: request.nextId(),
    siteId: site.id,
    sectionId: section.id,
    space: request.space,
    now: request.now,
  });
  return section;
}

/** Ids of the sections of a site in structure order: top-level place, then place in its group. */
export const listSectionIds = keysetList(
  (db, args: { siteId: string }) =>
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("site_sections as s")
          .leftJoin("site_section_groups as g", "g.id", "s.group_id")
          .select([
            "s.id",
            sql<number>`coalesce(g.position, s.position)`.as("top_position"),
            sql<number>`case when s.group_id is null then -1 else s.position end`.as("inner_position"),
          ])
          .where("s.site_id", "=", args.siteId)
          .as("ordered"),
      )
      .selectAll(),
  { top_position: "number", inner_position: "number", id: "string" },
);

/** Ids of the section groups of a site, in top-level order. */
export const listGroupIds = keysetList(
  (db, args: { siteId: string }) =>
    db.selectFrom("site_section_groups").select(["id", "position"]).where("site_id", "=", args.siteId),
  { position: "number", id: "string" },
);
