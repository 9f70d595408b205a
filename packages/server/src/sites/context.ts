import type { Caller } from "../auth/caller.js";
import type { Db } from "../db/database.js";
import { authorize, type OrganizationRole } from "../policy.js";
import type { Services } from "../services.js";
import type { SitePresentation } from "../site-spaces/index.js";
import { activeShareLink, getSite, lockSite, type MemberSite, type SiteRow, siteForCaller } from "./store.js";
import { loadSiteStructure, type SiteStructure } from "./structure.js";
import { publishedUrls } from "./urls.js";

/** Path of every operation on one site. */
export interface SitePath {
  organizationId: string;
  siteId: string;
}

/** A change to a site's structure, made under the site's lock on the structure as it stands. */
export interface StructureChange {
  tx: Db;
  structure: SiteStructure;
  /** 403 unless the caller's organization role passes `allowed`; call once the items named are found. */
  authorize(allowed: (role: OrganizationRole) => boolean, action: string): void;
}

/** What the handlers of sites, sections and site spaces share: finding the site, presenting, changing. */
export function siteHandling(services: Services) {
  const { db, urls, now } = services;

  /** How to present the site's items to this caller; an active share link's key goes into published URLs. */
  async function presentation(member: MemberSite, shareKey?: string): Promise<SitePresentation> {
    const link = shareKey === undefined ? undefined : await activeShareLink(db, member.site.id, shareKey);
    return { role: member.role, urls, published: publishedUrls(urls, member.site, link?.share_key) };
  }

  return {
    now,
    presentation,

    /** The site with the caller's role (404, or 403 for a guest), and the role allowing `allowed` when given. */
    async site(
      path: SitePath,
      caller: Caller,
      allowed?: (role: OrganizationRole) => boolean,
      action = "",
    ): Promise<MemberSite> {
      const member = await siteForCaller(db, path, caller.user.id);
      if (allowed) authorize(allowed(member.role), action);
      return member;
    },

    /** The site as it is now, as stored. */
    reread: (siteId: string): Promise<SiteRow> => getSite(db, siteId),

    /** The whole structure of the site, for reads. */
    structure: (member: MemberSite) => loadSiteStructure(db, member.site),

    /**
     * Runs `change` in a transaction holding the site's lock, then reads the structure again for
     * the answer, so that what is presented is what was stored.
     */
    async changeStructure<T>(
      member: MemberSite,
      change: (context: StructureChange) => Promise<T>,
    ): Promise<{ result: T; structure: SiteStructure }> {
      const result = await db.transaction().execute(async (tx) => {
        await lockSite(tx, member.site.id);
        const structure = await loadSiteStructure(tx, member.site);
        return change({
          tx,
          structure,
          authorize: (allowed, action) => authorize(allowed(member.role), action),
        });
      });
      return { result, structure: await loadSiteStructure(db, member.site) };
    },

    /** 201 with the `Location` of an item whose contract shape carries no API URL. */
    createdWithLocation<Body>(path: string, body: Body) {
      return { status: 201 as const, headers: { location: urls.api(path) }, body };
    },
  };
}
