import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import type { PageQuery } from "../http/paging.js";
import type { Urls } from "../urls.js";
import { engineQuery, isSqlite, termsOf } from "./engine.js";
import { indexStaleSpaces } from "./indexer.js";
import { presentPages, presentSearchResults, type Searched } from "./presenter.js";
import { type SearchCursor, type SearchedSpaces, searchCursor, searchPages, searchSpaces } from "./store.js";

/**
 * What a search asks of the engine: the words of `text` (and the engine), the engine's query and
 * where the page of results starts; none when `text` has no word. The index of the spaces searched
 * is brought up to date first, for spaces whose content changed outside a merge.
 */
async function prepareSearch(
  db: Db,
  text: string,
  query: PageQuery,
  indexed: { organizationId: string; spaceId?: string },
): Promise<{ searched: Searched; match: string; limit?: number; cursor: SearchCursor } | undefined> {
  const terms = termsOf(text);
  // A forged cursor is a 400 before the index is brought up to date: a refused request writes nothing.
  const cursor = searchCursor(query);
  if (terms.length === 0) return undefined;
  await indexStaleSpaces(db, indexed);
  const sqlite = isSqlite(db);
  const match = engineQuery(sqlite, terms);
  return {
    searched: { terms, sqlite },
    match,
    cursor,
    ...(query.limit !== undefined && { limit: query.limit }),
  };
}

/**
 * One page of results for `text` over the spaces of the organization that the user reads, or over
 * the given spaces of the organization (a site's). The caller's access is checked before.
 */
export async function searchContent(
  db: Db,
  urls: Urls,
  args: { organizationId: string; spaces: SearchedSpaces; text: string },
  query: PageQuery,
): Promise<Schema<"SearchSpaceResultPage">> {
  const search = await prepareSearch(db, args.text, query, { organizationId: args.organizationId });
  if (!search) return { count: 0, items: [] };
  const page = await searchSpaces(db, { spaces: args.spaces, match: search.match }, search);
  return {
    count: page.count,
    items: presentSearchResults(page.spaces, search.searched, urls),
    ...(page.next && { next: page.next }),
  };
}

/**
 * One page of results for `text` in the main content of one space: its pages, best first. The
 * caller's access to the space is checked before.
 */
export async function searchSpaceContent(
  db: Db,
  urls: Urls,
  space: { id: string; organization_id: string },
  text: string,
  query: PageQuery,
): Promise<Schema<"SearchPageResultPage">> {
  const indexed = { organizationId: space.organization_id, spaceId: space.id };
  const search = await prepareSearch(db, text, query, indexed);
  if (!search) return { count: 0, items: [] };
  const page = await searchPages(db, { spaceId: space.id, match: search.match }, search);
  return {
    count: page.count,
    items: presentPages(page.sections, search.searched, urls),
    ...(page.next && { next: page.next }),
  };
}
