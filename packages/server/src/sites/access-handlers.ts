import type { AccessMap, AreaHandlers } from "../area.js";
import { flag } from "../db/codecs.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import type { Services } from "../services.js";
import { administersSite } from "./access.js";
import { siteHandling } from "./context.js";
import { presentPublishingAuth, presentShareLink } from "./presenter.js";
import { getSite, likePattern, listShareLinks, searchShareLinks, shareLinkOf, updateRow } from "./store.js";
import { newShareKey, newVisitorAuthKey, sealVisitorAuthKey } from "./visitor-auth.js";

const administers = administersSite("manage who can access this site");

/**
 * Who can open a published site: its share links (`share-link` visibility) and its visitor
 * authentication (`visitor-auth`). Keys are secrets: only administrators read them.
 */
export const visitorAccess = {
  // Share links: who opens a site of `share-link` visibility.
  listSiteShareLinks: administers,
  createSiteShareLink: administers,
  updateSiteShareLinkById: administers,
  deleteSiteShareLinkById: administers,
  // Visitor authentication: its key signs visitors' tokens.
  getSitePublishingAuthById: administers,
  updateSitePublishingAuthById: administers,
  regenerateSitePublishingAuthById: administers,
} satisfies AccessMap;

export function siteAccessHandlers(services: Services): AreaHandlers<typeof visitorAccess> {
  const { db, urls, ids, secretKey } = services;
  const sites = siteHandling(services);

  return {
    async listSiteShareLinks({ query }, { site }) {
      const page =
        query.search === undefined
          ? await listShareLinks(db, { siteId: site.id }, query)
          : await searchShareLinks(
              db,
              { siteId: site.id, pattern: likePattern(query.search), key: query.search },
              query,
            );
      return ok(presentPage(page, (link) => presentShareLink(link, urls, site)));
    },

    async createSiteShareLink({ path, body }, { site }) {
      const now = sites.now();
      const link = {
        id: ids.next(),
        site_id: site.id,
        name: body.name,
        share_key: newShareKey(),
        active: flag(true),
        created_at: now,
        updated_at: now,
      };
      await db.insertInto("site_share_links").values(link).execute();
      return sites.createdWithLocation(
        `orgs/${path.organizationId}/sites/${site.id}/share-links/${link.id}`,
        presentShareLink(link, urls, site),
      );
    },

    async updateSiteShareLinkById({ path, body }, { site }) {
      const link = await shareLinkOf(db, site.id, path.shareLinkId);
      const changes = {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.active !== undefined && { active: flag(body.active) }),
      };
      await updateRow(db, "site_share_links", link.id, changes, sites.now());
      return ok(presentShareLink(await shareLinkOf(db, site.id, link.id), urls, site));
    },

    async deleteSiteShareLinkById({ path }, { site }) {
      const link = await shareLinkOf(db, site.id, path.shareLinkId);
      await db.deleteFrom("site_share_links").where("id", "=", link.id).execute();
      return noContent();
    },

    async getSitePublishingAuthById(_input, { site }) {
      return ok(presentPublishingAuth(site, secretKey));
    },

    async updateSitePublishingAuthById({ body }, { site }) {
      await updateRow(
        db,
        "sites",
        site.id,
        {
          auth_backend: body.backend,
          ...(body.fallbackURL !== undefined && { auth_fallback_url: body.fallbackURL }),
          ...(body.logoutURL !== undefined && { auth_logout_url: body.logoutURL }),
        },
        sites.now(),
      );
      return ok(presentPublishingAuth(await getSite(db, site.id), secretKey));
    },

    async regenerateSitePublishingAuthById(_input, { site }) {
      const sealed = sealVisitorAuthKey(secretKey, site.id, newVisitorAuthKey());
      await updateRow(db, "sites", site.id, { auth_key: sealed }, sites.now());
      return ok(presentPublishingAuth(await getSite(db, site.id), secretKey));
    },
  };
}
