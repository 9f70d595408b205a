import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import type { SpaceTable } from "../db/schema.js";
import { pagePaths } from "../git-sync/index.js";
import { notFound } from "../http/errors.js";
import type { Services } from "../services.js";
import { type RenderedPage, renderPage, siteLinkContext } from "../sites/index.js";

/**
 * A document page of the space's main content rendered by the published sites' engine, its links
 * between pages leading to the pages in the app; 404 for no such page, or a group or link (no body).
 */
export async function renderedPage(
  services: Pick<Services, "db" | "urls" | "secretKey">,
  space: SpaceTable,
  pageId: string,
): Promise<RenderedPage> {
  const storage = new ContentStorage(services.db, space.id);
  const revision = await revisionOf(services.db, space.id, space.revision_id);
  const tree = await treeOf(storage, revision);
  const page = tree.get(pageId);
  if (!page) throw notFound("Page");
  if (page.kind !== undefined) throw notFound("Document of the page");
  const [markdown = ""] = await storage.bodies([page.document]);
  // The Git paths of pages, for links written as paths of files in the repository (as on a site).
  const pageFiles = await pagePaths(services.db, space.id);
  const appPage = (linked: PageEntry) => services.urls.app(`spaces/${space.id}/${tree.path(linked)}`);
  const context = siteLinkContext(services, { storage, revision, tree, pageFiles }, appPage);
  return renderPage(context, page, markdown);
}
