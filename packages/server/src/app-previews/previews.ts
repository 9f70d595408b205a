import type { ElementContent } from "hast";
import { h } from "hastscript";
import type { Caller } from "../auth/caller.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import type { SpaceTable } from "../db/schema.js";
import { pagePaths } from "../git-sync/index.js";
import { notFound } from "../http/errors.js";
import type { Services } from "../services.js";
import { renderPage, siteLinkContext } from "../sites/index.js";
import { onSpace } from "../spaces/index.js";
import { fields, type PreviewView, pageBody } from "./view.js";

// The same rules as the API's operations on each resource (see each area's handlers.ts).
const readsSpace = onSpace("read this space");

/** Where a revision's pages are previewed (the app shows the space's and a change request's). */
interface Place {
  space: SpaceTable;
  revisionId: string;
  /** The app path of the place; its pages are under it. */
  path: string;
}

/** What a preview asks for: the caller and where their search box and links lead. */
export interface Visit {
  caller: Caller;
  /** The path of an app URL as the server serves it. */
  href(appPath: string): string;
}

const when = (at: string) => at.replace("T", " ").replace(/\.\d+Z$/, " UTC");

/** The previews of each kind of resource the API gives an app URL to; 404 or 403 from an access rule. */
export function previews(services: Services) {
  const { db, urls } = services;

  /** The pages of a revision of the space at `place`, with what every preview of them shows around them. */
  async function openPlace(place: Place, { href }: Visit) {
    const storage = new ContentStorage(db, place.space.id);
    const revision = await revisionOf(db, place.space.id, place.revisionId);
    const tree = await treeOf(storage, revision);
    const chrome = {
      siteTitle: place.space.title,
      homeHref: href(place.path),
      searchHref: href(`orgs/${place.space.organization_id}/search`),
      tree,
      pageHref: (page: PageEntry) => href(`${place.path}/${tree.path(page)}`),
    };
    return { storage, revision, tree, chrome };
  }

  /** A page of the place as the published sites render it; 404 when it has none at that path. */
  async function pageView(place: Place, visit: Visit, pagePath: string): Promise<PreviewView> {
    const { storage, revision, tree, chrome } = await openPlace(place, visit);
    const page = tree.atPath(pagePath);
    if (!page) throw notFound("Page");
    const [markdown = ""] = await storage.bodies([page.document]);
    // Links between pages lead to their previews, images to the files' URLs, as on a site.
    const pageFiles = await pagePaths(services.db, revision.space_id);
    const context = siteLinkContext(services, { storage, revision, tree, pageFiles }, chrome.pageHref);
    const { body, headings } = await renderPage(context, page, markdown);
    return {
      ...chrome,
      subject: page,
      headings,
      content: [pageBody(body)],
      canonicalUrl: urls.app(`${place.path}/${pagePath}`),
    };
  }

  return {
    /** A revision of a space: what it is, and its pages (one of them with `pagePath`). */
    async revision(visit: Visit, spaceId: string, revisionId: string, pagePath: string) {
      const { space } = await readsSpace.standing(services, visit.caller, { spaceId });
      const place = { space, revisionId, path: `spaces/${space.id}/revisions/${revisionId}` };
      if (pagePath) return pageView(place, visit, pagePath);
      const { revision, tree, chrome } = await openPlace(place, visit);
      const pages = (parent: string | null): ElementContent | undefined => {
        const children = tree.children(parent);
        return children.length === 0
          ? undefined
          : h(
              "ul",
              children.map((page) =>
                h("li", [h("a", { href: chrome.pageHref(page) }, page.title), pages(page.id)]),
              ),
            );
      };
      return {
        ...chrome,
        subject: { title: `Revision of ${space.title}` },
        content: [
          fields([
            ["Revision", revision.id],
            ["Kind", revision.type],
            ["Created", when(revision.created_at)],
            ["Pages", String(tree.size)],
          ]),
          h("h2", "Pages"),
          pages(null) ?? h("p", "No pages."),
        ],
        canonicalUrl: urls.app(place.path),
      };
    },
  };
}
