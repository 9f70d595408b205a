import type { Db } from "../db/database.js";

const CHUNK = 500;

/** The URLs each of these documents links to, in document order, by hash. */
export async function linksOfDocuments(db: Db, spaceId: string, hashes: Iterable<string>) {
  const links = new Map<string, string[]>();
  const all = [...new Set(hashes)];
  for (let i = 0; i < all.length; i += CHUNK) {
    const rows = await db
      .selectFrom("content_document_links")
      .select(["hash", "url"])
      .where("space_id", "=", spaceId)
      .where("hash", "in", all.slice(i, i + CHUNK))
      .orderBy("hash")
      .orderBy("position")
      .execute();
    for (const row of rows) {
      const urls = links.get(row.hash);
      if (urls) urls.push(row.url);
      else links.set(row.hash, [row.url]);
    }
  }
  return links;
}
