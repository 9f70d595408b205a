import type { Schema } from "@quire/api-types";
import { sql } from "kysely";
import type { Flag } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import { keysetList, type PageKeys, type PageQuery } from "../../http/paging.js";
import { likePattern } from "../store.js";
import type { SiteRedirectTable } from "../tables.js";

export async function insertRedirect(tx: Db, row: SiteRedirectTable): Promise<void> {
  await tx.insertInto("site_redirects").values(row).execute();
}

/** The redirect `id` of the site, if it has one. */
export function redirectOf(db: Db, siteId: string, id: string): Promise<SiteRedirectTable | undefined> {
  return db
    .selectFrom("site_redirects")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The live (draft 0) or draft (1) redirect of the site from `source`, if any. */
export function redirectFrom(
  db: Db,
  siteId: string,
  draft: Flag,
  source: string,
): Promise<SiteRedirectTable | undefined> {
  return db
    .selectFrom("site_redirects")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("draft", "=", draft)
    .where("source", "=", source)
    .executeTakeFirst();
}

/** The live redirects of the site from any of `sources`. */
export function liveRedirectsFrom(db: Db, siteId: string, sources: readonly string[]) {
  return db
    .selectFrom("site_redirects")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("draft", "=", 0)
    .where("source", "in", sources)
    .execute();
}

/** Applies `changes` to the redirect `id`, which is then changed as of `now`. */
export async function updateRedirect(
  tx: Db,
  id: string,
  changes: Partial<Omit<SiteRedirectTable, "id" | "site_id" | "created_at" | "updated_at">>,
  now: string,
): Promise<void> {
  await tx
    .updateTable("site_redirects")
    .set({ ...changes, updated_at: now })
    .where("id", "=", id)
    .execute();
}

/** Deletes the redirect `id` of the site; whether there was one. */
export async function deleteRedirect(db: Db, siteId: string, id: string): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom("site_redirects")
    .where("site_id", "=", siteId)
    .where("id", "=", id)
    .executeTakeFirst();
  return numDeletedRows > 0n;
}

type ListedRedirect = SiteRedirectTable & { changed_at: string };

/** The redirects of a list, with `changed_at`, when each last changed, as a column to sort on. */
function redirectLister(keys: PageKeys<ListedRedirect>, descending: boolean, searched: boolean) {
  return keysetList(
    (db, a: { siteId: string; draft: Flag; pattern: string }) =>
      db
        .selectFrom((eb) => {
          let q = eb
            .selectFrom("site_redirects")
            .selectAll()
            .select(sql<string>`coalesce(updated_at, created_at)`.as("changed_at"))
            .where("site_id", "=", a.siteId)
            .where("draft", "=", a.draft);
          if (searched) q = q.where(sql<boolean>`lower(source) like ${a.pattern} escape '\\'`);
          return q.as("listed");
        })
        .selectAll(),
    keys,
    { descending },
  );
}

/** Each order of `listSiteRedirects`, without and with a search: a prepared read takes plain values. */
const listers = Object.fromEntries(
  (
    [
      ["createdAt", { created_at: "string", id: "string" }, true],
      ["updatedAt", { changed_at: "string", id: "string" }, true],
      ["source", { source: "string", id: "string" }, false],
    ] as const
  ).map(([order, keys, descending]) => [
    order,
    [redirectLister(keys, descending, false), redirectLister(keys, descending, true)] as const,
  ]),
) as Record<Schema<"SiteRedirectOrderBy">, readonly [Lister, Lister]>;

type Lister = ReturnType<typeof redirectLister>;

/**
 * The live or draft redirects of a site, newest or last changed first, or by source; `search`
 * matches a part of the source.
 */
export function listRedirects(
  db: Db,
  filters: { siteId: string; draft: Flag; search?: string; orderBy: Schema<"SiteRedirectOrderBy"> },
  query: PageQuery,
) {
  const [all, searched] = listers[filters.orderBy];
  const args = { siteId: filters.siteId, draft: filters.draft, pattern: "" };
  return filters.search === undefined
    ? all(db, args, query)
    : searched(db, { ...args, pattern: likePattern(filters.search) }, query);
}
