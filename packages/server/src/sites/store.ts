import type { Schema } from "@quire/api-types";
import { SqliteAdapter, sql } from "kysely";
import { callerMembership, membershipOf } from "../access.js";
import { type Flag, flag } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import { forbidden, notFound } from "../http/errors.js";
import { keysetList, type PageQuery } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";
import { canReadSites } from "./policy.js";
import { siteSpaceCount } from "./structure.js";
import type { SiteShareLinkTable, SitesTables, SiteTable } from "./tables.js";

/** A site with its number of shown site spaces (`Site.siteSpaces`), counted as it is read. */
export type SiteRow = SiteTable & { site_space_count: number | string };

export interface MemberSite {
  site: SiteRow;
  role: OrganizationRole;
  /** Who calls: what they change is recorded in their name. */
  callerId: string;
}

const siteColumns = (db: Db) =>
  db
    .selectFrom("sites")
    .selectAll("sites")
    .select(siteSpaceCount(sql.ref("sites.id")).as("site_space_count"));

const siteWithMembership = preparedRead(
  (db, args: { organizationId: string; siteId: string; userId: string }) =>
    siteColumns(db)
      .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
      .where("sites.id", "=", args.siteId)
      .where("sites.organization_id", "=", args.organizationId),
);

/**
 * The site with the caller's organization role, in one statement: 404 when missing, in another
 * organization, or the caller is not a member; 403 for a guest, who reads no site.
 */
export async function siteForCaller(
  db: Db,
  path: { organizationId: string; siteId: string },
  userId: string,
): Promise<MemberSite> {
  const [found] = await siteWithMembership(db, { ...path, userId });
  const role = membershipOf(found?.caller_membership);
  if (!found || role === undefined) throw notFound("Site");
  if (!canReadSites(role)) throw forbidden("Guests of an organization cannot see its sites.");
  const { caller_membership: _selected, ...site } = found;
  return { site, role, callerId: userId };
}

export function getSite(db: Db, id: string): Promise<SiteRow> {
  return siteColumns(db).where("sites.id", "=", id).executeTakeFirstOrThrow();
}

/** The site, when there is one with this id. */
export function findSite(db: Db, id: string): Promise<SiteRow | undefined> {
  return siteColumns(db).where("sites.id", "=", id).executeTakeFirst();
}

/**
 * The site whose proxy (GitBook's form: a host and a path, no scheme) is on `hostname`, which the
 * caller has checked holds no `%` or `_`.
 */
export function siteAtHost(db: Db, hostname: string): Promise<SiteRow | undefined> {
  return siteColumns(db).where("proxy_origin", "like", `${hostname}/%`).executeTakeFirst();
}

export interface SiteFilters {
  space?: string;
  title?: string;
  published?: boolean;
  type?: Schema<"SiteType">[];
}

type ListArgs = { organizationId: string } & Record<string, string | number>;

/** `%` and `_` of a title filter match themselves. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The lister of one combination of filters: which are given, and how many types. */
function siteLister(filters: { space: boolean; title: boolean; published: boolean; types: number }) {
  return keysetList(
    (db: Db, a: ListArgs) => {
      let q = siteColumns(db).where("sites.organization_id", "=", a.organizationId);
      if (filters.space)
        q = q.where(
          sql<boolean>`exists (select 1 from site_spaces f where f.site_id = sites.id and f.space_id = ${a.space})`,
        );
      if (filters.title) q = q.where(sql<boolean>`lower(sites.title) like ${a.title} escape '\\'`);
      if (filters.published) q = q.where("sites.published", "=", a.published as Flag);
      if (filters.types > 0)
        q = q.where(
          "sites.type",
          "in",
          Array.from({ length: filters.types }, (_, i) => a[`type${i}`] as Schema<"SiteType">),
        );
      return q;
    },
    { id: "string" },
  );
}

const listers = new Map<string, ReturnType<typeof siteLister>>();

/**
 * Sites of an organization, in creation order. Each combination of
 * filters is its own prepared statement, built on first use: a prepared read takes plain values.
 */
export function listSites(db: Db, organizationId: string, filters: SiteFilters, query: PageQuery) {
  const types = [...new Set(filters.type ?? [])];
  const shape = {
    space: filters.space !== undefined,
    title: filters.title !== undefined,
    published: filters.published !== undefined,
    types: types.length,
  };
  const key = JSON.stringify(shape);
  let list = listers.get(key);
  if (!list) {
    list = siteLister(shape);
    listers.set(key, list);
  }
  const listArgs: ListArgs = {
    organizationId,
    ...(filters.space !== undefined && { space: filters.space }),
    ...(filters.title !== undefined && { title: likePattern(filters.title) }),
    ...(filters.published !== undefined && { published: flag(filters.published) }),
    ...Object.fromEntries(types.map((type, i) => [`type${i}`, type])),
  };
  return list(db, listArgs, query);
}

export async function insertSite(db: Db, row: SiteTable): Promise<void> {
  await db.insertInto("sites").values(row).execute();
}

/**
 * Applies `changes` to the row `id` of one of this area's tables and moves its `updated_at` to
 * `now`. An empty change writes nothing, so `updated_at` moves only when something does.
 */
export async function updateRow<Table extends keyof SitesTables>(
  db: Db,
  table: Table,
  id: string,
  changes: Partial<
    Omit<SitesTables[Table], "id" | "organization_id" | "site_id" | "created_at" | "updated_at">
  >,
  now: string,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  // Kysely types `set` per table; `changes` is typed by `Table` above.
  await db
    .updateTable(table as keyof SitesTables)
    .set({ ...changes, updated_at: now } as never)
    .where("id", "=", id)
    .execute();
}

/**
 * Serializes changes to a site's structure until the transaction ends, so that positions, defaults
 * and unique paths are decided on a structure nobody else is changing. PostgreSQL locks the site's
 * row; SQLite runs one write transaction at a time anyway.
 */
export async function lockSite(tx: Db, siteId: string): Promise<void> {
  if (tx.getExecutor().adapter instanceof SqliteAdapter) return;
  await tx.selectFrom("sites").select("id").where("id", "=", siteId).forUpdate().execute();
}

/**
 * Whether the site is one of the organization's, holding its row until the transaction ends (on
 * PostgreSQL), so that it cannot be deleted before what points to it is written.
 */
export async function lockSiteOf(tx: Db, organizationId: string, siteId: string): Promise<boolean> {
  let query = tx
    .selectFrom("sites")
    .select("id")
    .where("id", "=", siteId)
    .where("organization_id", "=", organizationId);
  if (!(tx.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

/** Share links of a site, oldest first; `search` matches a name's text or a whole key. */
export const listShareLinks = keysetList(
  (db, args: { siteId: string }) =>
    db.selectFrom("site_share_links").selectAll().where("site_id", "=", args.siteId),
  { id: "string" },
);

export const searchShareLinks = keysetList(
  (db, args: { siteId: string; pattern: string; key: string }) =>
    db
      .selectFrom("site_share_links")
      .selectAll()
      .where("site_id", "=", args.siteId)
      .where((eb) =>
        eb.or([
          eb("share_key", "=", args.key),
          sql<boolean>`lower(site_share_links.name) like ${args.pattern} escape '\\'`,
        ]),
      ),
  { id: "string" },
);

export async function shareLinkOf(db: Db, siteId: string, shareLinkId: string): Promise<SiteShareLinkTable> {
  const link = await db
    .selectFrom("site_share_links")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("id", "=", shareLinkId)
    .executeTakeFirst();
  if (!link) throw notFound("Share link");
  return link;
}

/** The active share link of a site holding `key`, if any. */
export function activeShareLink(db: Db, siteId: string, key: string) {
  return db
    .selectFrom("site_share_links")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("share_key", "=", key)
    .where("active", "=", flag(true))
    .executeTakeFirst();
}
