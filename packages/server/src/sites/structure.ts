import { slug } from "github-slugger";
import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { badRequest, conflict } from "../http/errors.js";
import { InvalidCondition, parseCondition } from "./conditions.js";
import type { SiteSectionGroupTable, SiteSectionTable, SiteSpaceTable, SiteTable } from "./tables.js";

/**
 * The structure of a site, read whole: sites hold tens of items, and every rule about them
 * (ordering, defaults, unique paths, the published view) looks at a container as a whole.
 *
 * A site space is shown while its space is not deleted and still belongs to the site's
 * organization: a deleted space's links come back with its restore, a transferred one's stay out.
 */
export function siteSpaceShown(siteSpace: "site_spaces" | "ss"): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from spaces shown_space inner join sites shown_site
    on shown_site.organization_id = shown_space.organization_id
    where shown_space.id = ${sql.ref(`${siteSpace}.space_id`)} and shown_site.id = ${sql.ref(`${siteSpace}.site_id`)}
    and shown_space.deleted_at is null)`;
}

/**
 * SQL: the ids of the spaces the site of id `siteId` publishes (its shown site spaces), as a subquery
 * for `in`; none for an unknown site.
 */
export function spacesPublishedBy(siteId: string | Expression<string>) {
  return sql<string>`(select ss.space_id from site_spaces ss where ss.site_id = ${siteId} and ${siteSpaceShown("ss")})`;
}

/** `Site.siteSpaces`: the shown site spaces of the site whose id is in `siteId`, as a scalar subquery. */
export function siteSpaceCount(siteId: Expression<string>) {
  return sql<
    number | string
  >`(select count(*) from site_spaces ss where ss.site_id = ${siteId} and ${siteSpaceShown("ss")})`;
}

export interface SiteSpaceEntry {
  row: SiteSpaceTable;
  space: SpaceTable;
}

export interface SiteStructure {
  site: SiteTable;
  /** Top-level items in order: ungrouped sections and groups. */
  top: TopItem[];
  groups: Map<string, SiteSectionGroupTable>;
  /** Every section, in structure order (groups flattened in place). */
  sections: SiteSectionTable[];
  /** Every shown site space, in structure order. */
  siteSpaces: SiteSpaceEntry[];
}

export type TopItem =
  | { kind: "site-section"; id: string; position: number }
  | { kind: "site-section-group"; id: string; position: number };

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  a.position - b.position || a.id.localeCompare(b.id);

/** The whole structure of a site, ordered. */
export async function loadSiteStructure(db: Db, site: SiteTable): Promise<SiteStructure> {
  const [groups, sections, links] = await Promise.all([
    db.selectFrom("site_section_groups").selectAll().where("site_id", "=", site.id).execute(),
    db.selectFrom("site_sections").selectAll().where("site_id", "=", site.id).execute(),
    db
      .selectFrom("site_spaces")
      .selectAll()
      .where("site_id", "=", site.id)
      .where(siteSpaceShown("site_spaces"))
      .execute(),
  ]);
  const spaces = links.length
    ? await db
        .selectFrom("spaces")
        .selectAll()
        .where(
          "id",
          "in",
          links.map((l) => l.space_id),
        )
        .execute()
    : [];
  const spaceById = new Map(spaces.map((s) => [s.id, s]));

  const top: TopItem[] = [
    ...sections
      .filter((s) => s.group_id === null)
      .map((s) => ({ kind: "site-section" as const, id: s.id, position: s.position })),
    ...groups.map((g) => ({ kind: "site-section-group" as const, id: g.id, position: g.position })),
  ].sort(byPosition);
  const ordered = top.flatMap((item) =>
    item.kind === "site-section"
      ? sections.filter((s) => s.id === item.id)
      : sections.filter((s) => s.group_id === item.id).sort(byPosition),
  );
  const sectionOrder = new Map(ordered.map((s, i) => [s.id, i]));
  const siteSpaces = links
    .flatMap((row) => {
      const space = spaceById.get(row.space_id);
      return space ? [{ row, space }] : [];
    })
    .sort(
      (a, b) =>
        (sectionOrder.get(a.row.section_id ?? "") ?? -1) - (sectionOrder.get(b.row.section_id ?? "") ?? -1) ||
        byPosition(a.row, b.row),
    );
  return { site, top, groups: new Map(groups.map((g) => [g.id, g])), sections: ordered, siteSpaces };
}

/**
 * 400 when a body sets a localized text (`localizedTitle`, `localizedDescription`) to anything but
 * `{}`: Quire's site structure has one title and description per item, in `title` and `description`.
 */
export function refuseLocalizedText(fields: Record<string, Record<string, string> | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value !== undefined && Object.keys(value).length > 0)
      throw badRequest(
        `${field} cannot be set: Quire has no localized site structure; the one text goes in the unlocalized field.`,
      );
  }
}

/** The title a site space shows: its own in the site when it has one, else its space's. */
export const siteSpaceTitle = (entry: SiteSpaceEntry) => entry.row.title ?? entry.space.title;

/** The shown site spaces of one container: a section, or the root (null). */
export const siteSpacesIn = (structure: SiteStructure, sectionId: string | null) =>
  structure.siteSpaces.filter((entry) => entry.row.section_id === sectionId);

/**
 * A move's anchor for `placeInOrder`: the key (by `keyOf` its pointer) of the sibling to put the
 * item next to. `before` wins when both are given.
 */
export function anchorOf<Pointer>(
  position: { before?: Pointer; after?: Pointer } | undefined,
  keyOf: (pointer: Pointer) => string,
): { key: string; before: boolean } | undefined {
  if (position?.before) return { key: keyOf(position.before), before: true };
  if (position?.after) return { key: keyOf(position.after), before: false };
  return undefined;
}

/**
 * The order of `siblings` (keys) with `item` put next to `anchor`, or at the end without one: 400
 * when the anchor is the item itself or not one of the siblings.
 */
export function placeInOrder(
  siblings: readonly string[],
  item: string,
  anchor: { key: string; before: boolean } | undefined,
): string[] {
  const others = siblings.filter((key) => key !== item);
  let index = others.length;
  if (anchor) {
    if (anchor.key === item) throw badRequest("An item cannot be positioned relative to itself.");
    const found = others.indexOf(anchor.key);
    if (found < 0) throw badRequest("The item of the position is not a sibling of the moved item.");
    index = anchor.before ? found : found + 1;
  }
  others.splice(index, 0, item);
  return others;
}

type OrderedTable = "site_sections" | "site_section_groups" | "site_spaces";

/** Writes positions 0, 1, … in the given order, each row in its table. */
export async function renumber(db: Db, items: ReadonlyArray<{ table: OrderedTable; id: string }>) {
  for (const [position, { table, id }] of items.entries()) {
    await db.updateTable(table).set({ position }).where("id", "=", id).execute();
  }
}

/** The top level of a site as keys for `placeInOrder`, and back. */
export const topKey = (item: { kind: TopItem["kind"]; id: string }) => `${item.kind}:${item.id}`;
export function topItemsOf(keys: readonly string[]): Array<{ table: OrderedTable; id: string }> {
  return keys.map((key) => {
    const [kind, id = ""] = key.split(":");
    return { table: kind === "site-section" ? "site_sections" : "site_section_groups", id };
  });
}

/** The position after every item of the site's top level. */
export const topEnd = (structure: SiteStructure) => (structure.top.at(-1)?.position ?? -1) + 1;

const PATH_MAX = 100;
/** Paths are URL segments: letters, digits and `-_.~`, starting with a letter or digit. */
const PATH_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.~-]*$/u;

/** 400 unless a path a client chose can be a URL segment. */
export function assertPathSegment(path: string): void {
  if (!PATH_PATTERN.test(path))
    throw badRequest(
      `The path "${path}" must start with a letter or digit and hold only letters, digits and -_.~.`,
    );
}

/** A path made from a title, unique among `taken`: `-2`, `-3`, … when the plain one is taken. */
export function generatedPath(title: string, fallback: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = (slug(title).replace(/^[^\p{L}\p{N}]+/u, "") || fallback).slice(0, PATH_MAX);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, PATH_MAX - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/**
 * A condition from a request body as it is stored: unchanged when omitted, removed with null or
 * an empty string, otherwise kept exactly as written once it parses as a condition (400 if not).
 */
function checkedCondition(condition: string | null | undefined): string | null | undefined {
  if (typeof condition !== "string") return condition;
  // GitBook's empty condition is no condition.
  if (condition === "") return null;
  try {
    parseCondition(condition);
  } catch (err) {
    if (err instanceof InvalidCondition) throw badRequest(err.message);
    throw err;
  }
  return condition;
}

/**
 * The `path` and `condition` a request body sets on an item of a container (a section of a site, a
 * site space of a section or root), checked: 400 unless the path can be a URL segment and the
 * condition parses, 409 when one of `siblings` has the new path (read only for a new path; `where`
 * they are, for the message).
 */
export async function pathAndCondition(
  body: { path?: string; condition?: string | null },
  item: { path: string },
  siblings: () => Promise<ReadonlyArray<{ path: string }>>,
  where: string,
): Promise<{ path?: string; condition?: string | null }> {
  const condition = checkedCondition(body.condition);
  if (body.path !== undefined && body.path !== item.path) {
    assertPathSegment(body.path);
    if ((await siblings()).some((s) => s.path === body.path))
      throw conflict(`The path "${body.path}" is already taken ${where}.`, "path_taken");
  }
  return {
    ...(body.path !== undefined && { path: body.path }),
    ...(condition !== undefined && { condition }),
  };
}
