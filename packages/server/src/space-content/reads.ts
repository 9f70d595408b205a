import type { QueryParams } from "@quire/api-types";
import { contentEngine } from "../content/engine/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import {
  type FileScope,
  fileScopeArgs,
  listVisibleFiles,
  presentFile,
  revisionFiles,
  visibleFile,
} from "../files/index.js";
import { notFound } from "../http/errors.js";
import { type PageQuery, presentPage as presentListPage } from "../http/paging.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { type ContentView, presentPage, presentPages, presentRevision } from "./presenter.js";

/**
 * The content reads, the same for a space's main content and for a change request's: each answers
 * for one revision of the space, seen from `view`.
 */
export function contentReads({ db, urls, secretKey }: Pick<Services, "db" | "urls" | "secretKey">) {
  const open = async (spaceId: string, revisionId: string) => {
    const revision = await revisionOf(db, spaceId, revisionId);
    const storage = new ContentStorage(db, spaceId);
    return { revision, storage, tree: await treeOf(storage, revision) };
  };
  return {
    /** A revision, with the files its scope (main or a change request) showed when it was made. */
    async revision(view: ContentView, revisionId: string, scope: FileScope) {
      const { revision, tree } = await open(view.spaceId, revisionId);
      const files = await revisionFiles(db, scope, revision.created_at);
      return ok(
        presentRevision(
          revision,
          tree,
          view,
          urls,
          files.map((file) => presentFile(file, urls, secretKey)),
        ),
      );
    },

    async pages(view: ContentView, revisionId: string) {
      const { tree } = await open(view.spaceId, revisionId);
      return ok({ pages: presentPages(tree, null, view, urls) });
    },

    async page(view: ContentView, revisionId: string, pageId: string, query: QueryParams<"getPageById">) {
      const { tree, storage } = await open(view.spaceId, revisionId);
      const entry = tree.get(pageId);
      if (!entry) throw notFound("Page");
      // A group or a link has no body, not even an empty one.
      if (entry.kind !== undefined) return ok(presentPage(tree, entry, view, urls, { children: true }));
      const [markdown = ""] = await storage.bodies([entry.document]);
      // GitBook answers a page's body as its JSON document unless Markdown is asked for.
      const body =
        query.format === "markdown" ? { markdown } : { document: await contentEngine().toDocument(markdown) };
      return ok(presentPage(tree, entry, view, urls, { children: true, ...body }));
    },

    /** The files of main or of a change request (see `visibleFiles` in src/files/store.ts). */
    async files(scope: FileScope, query: PageQuery) {
      const page = await listVisibleFiles(db, fileScopeArgs(scope), query);
      return ok(presentListPage(page, (row) => presentFile(row, urls, secretKey)));
    },

    async file(scope: FileScope, fileId: string) {
      const file = await visibleFile(db, scope, fileId);
      if (!file) throw notFound("File");
      return ok(presentFile(file, urls, secretKey));
    },
  };
}
