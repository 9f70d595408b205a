import { lockSpace } from "../change-requests/index.js";
import { contentEngine } from "../content/engine/index.js";
import type { PageTree } from "../content/pages.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { RevisionTable } from "../content/tables.js";
import type { PageEntry } from "../content/trie.js";
import { type JsonText, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { SearchSectionTable } from "./tables.js";

/** What a page's index rows depend on: when none of it changed, its rows stay. */
interface Indexed {
  title: string;
  path: string;
  /** The titles of the pages above it, from the top level down. */
  ancestors: JsonText<string[]>;
  document: string | null;
}

function ancestorTitles(tree: PageTree, entry: PageEntry): JsonText<string[]> {
  const parentOf = (page: PageEntry) => (page.parent === null ? undefined : tree.get(page.parent));
  const titles: string[] = [];
  for (let up = parentOf(entry); up; up = parentOf(up)) titles.unshift(up.title);
  return toJson(titles);
}

/** The documents of the tree: groups and links have nothing to find, and no page to find it on. */
function indexedPages(tree: PageTree): Map<string, Indexed> {
  const pages = new Map<string, Indexed>();
  for (const entry of tree.entries())
    if (entry.kind === undefined)
      pages.set(entry.id, {
        title: entry.title,
        path: tree.path(entry),
        ancestors: ancestorTitles(tree, entry),
        document: entry.document,
      });
  return pages;
}

const same = (a: Indexed | undefined, b: Indexed) =>
  a !== undefined &&
  a.title === b.title &&
  a.path === b.path &&
  a.document === b.document &&
  a.ancestors === b.ancestors;

/** Rows per statement: 10 columns each, well under both engines' parameter limits. */
const CHUNK = 250;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) result.push(items.slice(i, i + CHUNK));
  return result;
}

/**
 * Makes the search index of a space hold its main content at `revision`. Only the pages whose body
 * differs from the revision indexed before are parsed and written again; a page that only shows
 * another title, path or ancestors (a moved or renamed page, and the pages under it) keeps its
 * sections, which get the new values. Call inside the transaction that makes `revision` the
 * space's, so that search and content never disagree once it commits.
 */
export async function indexMainContent(
  tx: Db,
  storage: ContentStorage,
  revision: RevisionTable,
): Promise<void> {
  const spaceId = revision.space_id;
  const indexed = await tx
    .selectFrom("search_spaces")
    .select("revision_id")
    .where("space_id", "=", spaceId)
    .executeTakeFirst();
  if (indexed?.revision_id === revision.id) return;
  const next = indexedPages(await treeOf(storage, revision));
  const previous = indexed
    ? indexedPages(await treeOf(storage, await revisionOf(tx, spaceId, indexed.revision_id)))
    : new Map<string, Indexed>();

  if (!indexed) await tx.deleteFrom("search_sections").where("space_id", "=", spaceId).execute();
  // A page whose body is the same keeps its sections: only what it shows of its place changes.
  const changed: [string, Indexed][] = [];
  const moved: [string, Indexed][] = [];
  for (const [id, page] of next) {
    const before = previous.get(id);
    if (same(before, page)) continue;
    (before?.document === page.document ? moved : changed).push([id, page]);
  }
  const stale = [...previous.keys()].filter((id) => {
    const page = next.get(id);
    return page === undefined || page.document !== previous.get(id)?.document;
  });
  for (const part of chunks(stale))
    await tx
      .deleteFrom("search_sections")
      .where("space_id", "=", spaceId)
      .where("page_id", "in", part)
      .execute();
  for (const [pageId, page] of moved)
    await tx
      .updateTable("search_sections")
      .set({ page_title: page.title, page_path: page.path, page_ancestors: page.ancestors })
      .where("space_id", "=", spaceId)
      .where("page_id", "=", pageId)
      .execute();

  const bodies = await storage.documents(
    changed.flatMap(([, page]) => (page.document ? [page.document] : [])),
  );
  // A body the engine refuses (stored before today's limits) is found by its page's title alone.
  const analyses = await contentEngine().analyzeAll(
    changed.map(([, page]) => (page.document ? (bodies.get(page.document) ?? "") : "")),
    { refusedAsEmpty: true },
  );
  const rows: SearchSectionTable[] = [];
  for (const [i, [pageId, page]] of changed.entries()) {
    // A page whose front matter says `noIndex` is left out of search, as GitBook leaves it.
    if (analyses[i]?.frontMatter?.noIndex) continue;
    const description = analyses[i]?.frontMatter?.description ?? "";
    for (const [position, section] of (analyses[i]?.sections ?? []).entries())
      rows.push({
        space_id: spaceId,
        page_id: pageId,
        position,
        page_title: page.title,
        page_path: page.path,
        page_description: description,
        page_ancestors: page.ancestors,
        anchor: section.anchor,
        heading: section.heading,
        body: section.text,
      });
  }
  for (const part of chunks(rows)) await tx.insertInto("search_sections").values(part).execute();

  await tx
    .insertInto("search_spaces")
    .values({ space_id: spaceId, revision_id: revision.id })
    .onConflict((oc) => oc.column("space_id").doUpdateSet({ revision_id: revision.id }))
    .execute();
}

/**
 * Brings the index of the organization's spaces (or of one of them) up to their main content, for spaces whose content
 * changed otherwise than by a merge (created before the index existed, duplicated, transferred):
 * each in its own transaction, after the space's lock, so that concurrent searches index it once.
 */
export async function indexStaleSpaces(
  db: Db,
  which: { organizationId: string; spaceId?: string },
): Promise<void> {
  const stale = await db
    .selectFrom("spaces")
    .leftJoin("search_spaces", "search_spaces.space_id", "spaces.id")
    .select("spaces.id")
    .where("spaces.organization_id", "=", which.organizationId)
    .$if(which.spaceId !== undefined, (qb) => qb.where("spaces.id", "=", which.spaceId as string))
    .where("spaces.deleted_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("search_spaces.revision_id", "is", null),
        eb("search_spaces.revision_id", "<>", eb.ref("spaces.revision_id")),
      ]),
    )
    .execute();
  for (const { id } of stale) {
    await db.transaction().execute(async (tx) => {
      const space = await lockSpace(tx, id);
      const storage = new ContentStorage(tx, id);
      await indexMainContent(tx, storage, await revisionOf(tx, id, space.revision_id));
    });
  }
}
