import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import type { AreaHandlers, Services } from "../services.js";
import { siteHandling } from "./context.js";
import { canManageSiteSettings } from "./policy.js";
import { presentPublishingAuth, presentShareLink } from "./presenter.js";
import { getSite, likePattern, listShareLinks, searchShareLinks, shareLinkOf, updateSite } from "./store.js";
import { newShareKey, newVisitorAuthKey, sealVisitorAuthKey } from "./visitor-auth.js";

const ACCESS = "manage who can access this site";

/**
 * Who can open a published site: its share links (`share-link` visibility) and its visitor
 * authentication (`visitor-auth`). Keys are secrets: only administrators read them.
 */
export function siteAccessHandlers(
  services: Services,
): AreaHandlers<
  | "listSiteShareLinks"
  | "createSiteShareLink"
  | "updateSiteShareLinkById"
  | "deleteSiteShareLinkById"
  | "getSitePublishingAuthById"
  | "updateSitePublishingAuthById"
  | "regenerateSitePublishingAuthById"
> {
  const { db, urls, ids, secretKey } = services;
  const sites = siteHandling(services);
  const administered = (
    path: { organizationId: string; siteId: string },
    caller: Parameters<typeof sites.site>[1],
  ) => sites.site(path, caller, canManageSiteSettings, ACCESS);

  return {
    async listSiteShareLinks({ path, query, caller }) {
      const { site } = await administered(path, caller);
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

    async createSiteShareLink({ path, body, caller }) {
      const { site } = await administered(path, caller);
      const now = sites.now();
      const link = {
        id: ids.next(),
        site_id: site.id,
        name: body.name,
        share_key: newShareKey(),
        active: 1,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto("site_share_links").values(link).execute();
      return sites.createdWithLocation(
        `orgs/${path.organizationId}/sites/${site.id}/share-links/${link.id}`,
        presentShareLink(link, urls, site),
      );
    },

    async updateSiteShareLinkById({ path, body, caller }) {
      const { site } = await administered(path, caller);
      const link = await shareLinkOf(db, site.id, path.shareLinkId);
      const changes = {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.active !== undefined && { active: body.active ? 1 : 0 }),
      };
      if (Object.keys(changes).length > 0)
        await db
          .updateTable("site_share_links")
          .set({ ...changes, updated_at: sites.now() })
          .where("id", "=", link.id)
          .execute();
      return ok(presentShareLink(await shareLinkOf(db, site.id, link.id), urls, site));
    },

    async deleteSiteShareLinkById({ path, caller }) {
      const { site } = await administered(path, caller);
      const link = await shareLinkOf(db, site.id, path.shareLinkId);
      await db.deleteFrom("site_share_links").where("id", "=", link.id).execute();
      return noContent();
    },

    async getSitePublishingAuthById({ path, caller }) {
      const { site } = await administered(path, caller);
      return ok(presentPublishingAuth(site, secretKey));
    },

    async updateSitePublishingAuthById({ path, body, caller }) {
      const { site } = await administered(path, caller);
      await updateSite(
        db,
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

    async regenerateSitePublishingAuthById({ path, caller }) {
      const { site } = await administered(path, caller);
      const sealed = sealVisitorAuthKey(secretKey, site.id, newVisitorAuthKey());
      await updateSite(db, site.id, { auth_key: sealed }, sites.now());
      return ok(presentPublishingAuth(await getSite(db, site.id), secretKey));
    },
  };
}
