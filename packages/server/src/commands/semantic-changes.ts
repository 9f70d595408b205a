import type { Schema } from "@quire/api-types";
import {
  baseRevisionOf,
  type ChangeRequestRow,
  changeRequestOf,
  changeRequestsMergedAs,
  presentChangeRequest,
} from "../change-requests/index.js";
import { contentEngine } from "../content/engine/index.js";
import { changedPages, PageTree } from "../content/pages.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { RevisionTable } from "../content/tables.js";
import type { PageEntry } from "../content/trie.js";
import type { SpaceTable } from "../db/schema.js";
import { type FileScope, type FileTable, presentFile, revisionFiles } from "../files/index.js";
import type { Services } from "../services.js";

type Change = Schema<"RevisionSemanticChange">;

/** Changes answered when the request does not say how many (GitBook's default). */
export const DEFAULT_CHANGES = 10;
type Deps = Pick<Services, "db" | "urls" | "secretKey">;

/**
 * What a revision changed from its first parent (everything, for a space's first revision), with the
 * change request a merge brought in. Files are placed in time: those the main content showed when the
 * revision was made and not when its parent was.
 */
export async function revisionChanges(
  deps: Deps,
  space: SpaceTable,
  revisionId: string,
  limit: number,
): Promise<Schema<"RevisionSemanticChanges">> {
  const after = await revisionOf(deps.db, space.id, revisionId);
  const before = after.parent_id === null ? null : await revisionOf(deps.db, space.id, after.parent_id);
  const main: FileScope = { spaceId: space.id, changeRequestId: null };
  const [filesAfter, filesBefore, [merged]] = await Promise.all([
    revisionFiles(deps.db, main, after.created_at),
    before === null ? [] : revisionFiles(deps.db, main, before.created_at),
    after.type === "merge" ? changeRequestsMergedAs(deps.db, space.id, [after.id]) : [],
  ]);
  const known = new Set(filesBefore.map((file) => file.id));
  const changes = await semanticChanges(deps, {
    spaceId: space.id,
    before,
    after,
    addedFiles: filesAfter.filter((file) => !known.has(file.id)),
    limit,
  });
  if (!merged) return changes;
  const row = await changeRequestOf(deps.db, space.id, merged.id);
  return { mergedFrom: presentChangeRequest(row, space.revision_id, deps.urls), ...changes };
}

/**
 * What a change request changes in the main content it is based on (`baseRevisionOf`): what merging
 * it would bring, with the files added to it.
 */
export async function changeRequestChanges(
  deps: Deps,
  changeRequest: ChangeRequestRow,
  limit: number,
): Promise<Schema<"RevisionSemanticChanges">> {
  const spaceId = changeRequest.space_id;
  const [before, after] = await Promise.all([
    revisionOf(deps.db, spaceId, baseRevisionOf(changeRequest)),
    revisionOf(deps.db, spaceId, changeRequest.revision_id),
  ]);
  const files = await revisionFiles(
    deps.db,
    { spaceId, changeRequestId: changeRequest.id },
    after.created_at,
  );
  return semanticChanges(deps, {
    spaceId,
    before,
    after,
    addedFiles: files.filter((file) => file.change_request_id === changeRequest.id),
    limit,
  });
}

/**
 * The changes from `before` (none: no pages) to `after`, page by page in `after`'s order (each page's
 * creation, edit and move), then the removed pages in `before`'s order, then `addedFiles`. Only the
 * first `limit` are answered, the rest counted in `more`; the text diffs of edited bodies are computed
 * for those only, in the content pool.
 */
async function semanticChanges(
  { db, urls, secretKey }: Deps,
  args: {
    spaceId: string;
    before: RevisionTable | null;
    after: RevisionTable;
    addedFiles: readonly FileTable[];
    limit: number;
  },
): Promise<Schema<"RevisionSemanticChanges">> {
  const storage = new ContentStorage(db, args.spaceId);
  const [beforeTree, afterTree] = await Promise.all([
    args.before === null ? new PageTree([]) : treeOf(storage, args.before),
    treeOf(storage, args.after),
  ]);
  const pages = changedPages(beforeTree, afterTree, Number.POSITIVE_INFINITY);
  const edited = new Set(pages.edited);
  const moved = new Set(pages.moved);
  const changed = (tree: PageTree, entry: PageEntry) => ({
    id: entry.id,
    type: entry.kind ?? ("document" as const),
    title: entry.title,
    path: tree.path(entry),
  });
  const parentIn = (tree: PageTree, entry: PageEntry) => {
    const parent = entry.parent === null ? undefined : tree.get(entry.parent);
    return parent && changed(tree, parent);
  };

  // Each change is built when it is answered, so that a large change costs only its first `limit`.
  const all: (() => Promise<Change>)[] = [];
  for (const entry of afterTree.inOrder()) {
    const page = changed(afterTree, entry);
    const old = beforeTree.get(entry.id);
    if (!old) {
      all.push(async () => ({ type: "page_created", page }));
      continue;
    }
    if (edited.has(entry.id)) all.push(() => pageEdited(storage, page, old, entry));
    if (moved.has(entry.id))
      all.push(async () => ({
        type: "page_moved",
        page,
        parent: { before: parentIn(beforeTree, old), after: parentIn(afterTree, entry) },
      }));
  }
  for (const id of pages.deleted) {
    const old = beforeTree.get(id) as PageEntry;
    all.push(async () => ({ type: "page_deleted", page: changed(beforeTree, old) }));
  }
  for (const file of args.addedFiles) {
    const { id, name, contentType, downloadURL } = presentFile(file, urls, secretKey);
    all.push(async () => ({ type: "file_created", file: { id, name, contentType, downloadURL } }));
  }
  const changes = await Promise.all(all.slice(0, args.limit).map((build) => build()));
  const more = all.length - changes.length;
  return { changes, ...(more > 0 && { more }) };
}

/** A before-and-after pair, when the value changed; an unset side is left out. */
function attribute(before: string | null | undefined, after: string | null | undefined) {
  if (before === after) return undefined;
  return { ...(before != null && { before }), ...(after != null && { after }) };
}

async function pageEdited(
  storage: ContentStorage,
  page: Schema<"ChangedRevisionPage">,
  old: PageEntry,
  entry: PageEntry,
): Promise<Change> {
  const attributes = {
    title: attribute(old.title, entry.title),
    slug: attribute(old.slug, entry.slug),
    document: attribute(old.document, entry.document),
    href: attribute(old.href, entry.href),
  };
  let diff: string | undefined;
  if (attributes.document) {
    const [before = "", after = ""] = await storage.bodies([old.document, entry.document]);
    diff = await contentEngine().textDiff(before, after);
  }
  return {
    type: "page_edited",
    page,
    attributes: Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)),
    ...(diff !== undefined && { diff }),
  };
}
