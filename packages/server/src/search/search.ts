import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import type { PageQuery } from "../http/paging.js";
import type { Urls } from "../urls.js";
import { engineQuery, isSqlite, termsOf } from "./engine.js";
import { indexStaleSpaces } from "./indexer.js";
import { presentSearchResults } from "./presenter.js";
import { type SearchedSpaces, searchCursor, searchSpaces } from "./store.js";

/**
 * One page of results for `text` over the spaces of the organization that the user reads, or over
 * the given spaces of the organization (a site's), the index first brought up to date for spaces
 * whose content changed outside a merge. The caller's access is checked before.
 */
export async function searchContent(
  db: Db,
  urls: Urls,
  args: { organizationId: string; spaces: SearchedSpaces; text: string },
  query: PageQuery,
): Promise<Schema<"SearchSpaceResultPage">> {
  const terms = termsOf(args.text);
  // A forged cursor is a 400 before the index is brought up to date: a refused request writes nothing.
  const cursor = searchCursor(query);
  if (terms.length === 0) return { count: 0, items: [] };
  await indexStaleSpaces(db, args.organizationId);
  const match = engineQuery(isSqlite(db), terms);
  const page = await searchSpaces(
    db,
    { spaces: args.spaces, match },
    { ...(query.limit !== undefined && { limit: query.limit }), cursor },
  );
  return {
    count: page.count,
    items: presentSearchResults(page.spaces, terms, urls),
    ...(page.next && { next: page.next }),
  };
}
