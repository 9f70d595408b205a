import type { QueryParams } from "@quire/api-types";
import { contentEngine } from "../content/engine/index.js";
import type { PageTree } from "../content/pages.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import {
  type FileScope,
  fileScopeArgs,
  listFilesShownAt,
  listVisibleFiles,
  presentFile,
  revisionFiles,
  visibleFile,
} from "../files/index.js";
import { notFound } from "../http/errors.js";
import { type PageQuery, presentPage as presentListPage } from "../http/paging.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import {
  type ContentView,
  presentDocument,
  presentPage,
  presentPages,
  presentRevision,
} from "./presenter.js";

/** The metadata of these pages' bodies (see `PagesMeta`). */
const pagesMeta = (storage: ContentStorage, pages: Iterable<PageEntry | undefined>) =>
  storage.pageMeta([...pages].flatMap((page) => (page?.document ? [page.document] : [])));

/**
 * The content reads, the same for a space's main content and for a change request's: each answers
 * for one revision of the space, seen from `view`.
 */
export function contentReads({ db, urls, secretKey }: Pick<Services, "db" | "urls" | "secretKey">) {
  const createdAt = async (spaceId: string, revisionId: string) =>
    (await revisionOf(db, spaceId, revisionId)).created_at;
  const open = async (spaceId: string, revisionId: string) => {
    const revision = await revisionOf(db, spaceId, revisionId);
    const storage = new ContentStorage(db, spaceId);
    return { revision, storage, tree: await treeOf(storage, revision) };
  };
  /** A page with its children, and its body in the format asked for (404 when there is no page). */
  const presentEntry = async (
    tree: PageTree,
    storage: ContentStorage,
    entry: PageEntry | undefined,
    view: ContentView,
    query: PageFormat,
  ) => {
    if (!entry) throw notFound("Page");
    const shown = tree.subtree(entry.id).map((id) => tree.get(id));
    const meta = await pagesMeta(storage, shown);
    // A group or a link has no body, not even an empty one.
    if (entry.kind !== undefined) return ok(presentPage(tree, entry, view, urls, { children: true, meta }));
    const [markdown = ""] = await storage.bodies([entry.document]);
    const body =
      query.format === "markdown" ? { markdown } : { document: await contentEngine().toDocument(markdown) };
    return ok(presentPage(tree, entry, view, urls, { children: true, meta, ...body }));
  };
  return {
    /** A revision, with the files its scope (main or a change request) showed when it was made. */
    async revision(view: ContentView, revisionId: string, scope: FileScope) {
      const { revision, tree, storage } = await open(view.spaceId, revisionId);
      const files = await revisionFiles(db, scope, revision.created_at);
      return ok(
        presentRevision(
          revision,
          tree,
          view,
          urls,
          files.map((file) => presentFile(file, urls, secretKey)),
          await pagesMeta(storage, tree.entries()),
        ),
      );
    },

    async pages(view: ContentView, revisionId: string) {
      const { tree, storage } = await open(view.spaceId, revisionId);
      return ok({ pages: presentPages(tree, null, view, urls, await pagesMeta(storage, tree.entries())) });
    },

    async page(view: ContentView, revisionId: string, pageId: string, query: PageFormat) {
      const { tree, storage } = await open(view.spaceId, revisionId);
      return presentEntry(tree, storage, tree.get(pageId), view, query);
    },

    /** Throws 404 unless the content of `revisionId` has the page `pageId`: a write names it first. */
    async assertPage(spaceId: string, revisionId: string, pageId: string) {
      const { tree } = await open(spaceId, revisionId);
      if (!tree.get(pageId)) throw notFound("Page");
    },

    /** The page at `path` (its slugs, leading and trailing slashes aside); "" is the first page. */
    async pageAtPath(view: ContentView, revisionId: string, path: string, query: PageFormat) {
      const { tree, storage } = await open(view.spaceId, revisionId);
      return presentEntry(tree, storage, tree.atPath(path.replace(/^\/+|\/+$/g, "")), view, query);
    },

    /**
     * A page's meta links, from its front matter (see `RevisionPageMetaLinks` in the contract); none
     * for a group or a link, which have no body.
     */
    async metaLinks(spaceId: string, revisionId: string, pageId: string) {
      const { tree, storage } = await open(spaceId, revisionId);
      const entry = tree.get(pageId);
      if (!entry) throw notFound("Page");
      if (entry.kind !== undefined || entry.document === null) return ok({});
      const [markdown = ""] = await storage.bodies([entry.document]);
      const { canonical, alternates } = (await contentEngine().analyze(markdown)).frontMatter ?? {};
      return ok({ ...(canonical && { canonical }), ...(alternates && { alternates }) });
    },

    /** A page's body as GitBook's JSON document; 404 for a group or a link, which have none. */
    async document(spaceId: string, revisionId: string, pageId: string) {
      const { tree, storage } = await open(spaceId, revisionId);
      const entry = tree.get(pageId);
      if (!entry) throw notFound("Page");
      if (entry.kind !== undefined) throw notFound("Document of the page");
      const [markdown = ""] = await storage.bodies([entry.document]);
      return ok(presentDocument(await contentEngine().toDocument(markdown)));
    },

    /**
     * The files of main or of a change request (see `visibleFiles` in src/files/store.ts); with
     * `revisionId`, those it showed when that revision was made.
     */
    async files(scope: FileScope, query: PageQuery, revisionId?: string) {
      const args = fileScopeArgs(scope);
      const page =
        revisionId === undefined
          ? await listVisibleFiles(db, args, query)
          : await listFilesShownAt(db, { ...args, at: await createdAt(scope.spaceId, revisionId) }, query);
      return ok(presentListPage(page, (row) => presentFile(row, urls, secretKey)));
    },

    async file(scope: FileScope, fileId: string, revisionId?: string) {
      const at = revisionId === undefined ? undefined : await createdAt(scope.spaceId, revisionId);
      const file = await visibleFile(db, scope, fileId, at);
      if (!file) throw notFound("File");
      return ok(presentFile(file, urls, secretKey));
    },
  };
}

/** How a page's body is answered: GitBook's JSON document unless Markdown is asked for. */
type PageFormat = Pick<QueryParams<"getPageById">, "format">;
