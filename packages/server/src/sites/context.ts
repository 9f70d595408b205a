import { lockContentTree } from "../content/tree.js";
import type { Db } from "../db/database.js";
import { type PageResult, presentPage } from "../http/paging.js";
import type { Services } from "../services.js";
import { recordSiteEvent } from "./events.js";
import type { SitePresentation } from "./site-spaces/presenter.js";
import { activeShareLink, lockSite, type MemberSite } from "./store.js";
import { loadSiteStructure, type SiteStructure } from "./structure.js";
import { publishedUrls } from "./urls.js";

/** Path of every operation on one site. */
export interface SitePath {
  organizationId: string;
  siteId: string;
}

/** A change to a site's structure, made under the site's lock on the structure as it stands. */
interface StructureChange {
  tx: Db;
  structure: SiteStructure;
}

/** What the handlers of sites, sections and site spaces share: presenting the site, changing it. */
export function siteHandling(services: Services) {
  const { db, urls, now, transaction } = services;

  /** How to present the site's items to this caller; an active share link's key goes into published URLs. */
  async function presentation(member: MemberSite, shareKey?: string): Promise<SitePresentation> {
    const link = shareKey === undefined ? undefined : await activeShareLink(db, member.site.id, shareKey);
    return { role: member.role, urls, published: publishedUrls(urls, member.site, link?.share_key) };
  }

  /**
   * Runs `change` in a transaction holding the site's lock, then reads the structure again for the
   * answer, so that what is presented is what was stored. A change that creates a space
   * (`createsSpace`) takes the organization's content tree lock before the site's, the order of
   * writers of the tree that unlink spaces from sites.
   */
  async function changeStructure<T>(
    member: MemberSite,
    change: (context: StructureChange) => Promise<T>,
    { createsSpace = false } = {},
  ): Promise<{ result: T; structure: SiteStructure }> {
    const result = await transaction(async (tx) => {
      if (createsSpace) await lockContentTree(tx, [member.site.organization_id]);
      await lockSite(tx, member.site.id);
      const changed = await change({ tx, structure: await loadSiteStructure(tx, member.site) });
      await recordSiteEvent(tx, services, member, "site_structure_updated");
      return changed;
    });
    return { result, structure: await loadSiteStructure(db, member.site) };
  }

  return {
    now,
    presentation,

    /**
     * A page of the site's items (sections, groups, site spaces) whose ids `page` holds in order,
     * found by id in the whole structure by `byId` and presented with it.
     */
    async presentPageOf<Item, Shown>(
      member: MemberSite,
      page: PageResult<{ id: string }>,
      byId: (structure: SiteStructure) => ReadonlyMap<string, Item>,
      present: (item: Item, structure: SiteStructure, presentation: SitePresentation) => Shown,
      shareKey?: string,
    ) {
      const [structure, shown] = await Promise.all([
        loadSiteStructure(db, member.site),
        presentation(member, shareKey),
      ]);
      const items = byId(structure);
      return presentPage({ ...page, rows: page.rows.flatMap((row) => items.get(row.id) ?? []) }, (item) =>
        present(item, structure, shown),
      );
    },

    changeStructure,

    /**
     * How to change one item of the site's structure: `find` picks it by id in the structure as it
     * stands under the lock (404), then `change` runs as in `changeStructure`.
     */
    itemChange:
      <Item>(find: (structure: SiteStructure, id: string) => Item) =>
      <T>(member: MemberSite, id: string, change: (item: Item, context: StructureChange) => Promise<T>) =>
        changeStructure(member, (context) => change(find(context.structure, id), context)),

    /** 201 with the `Location` of an item whose contract shape carries no API URL. */
    createdWithLocation<Body>(path: string, body: Body) {
      return { status: 201 as const, headers: { location: urls.api(path) }, body };
    },
  };
}
