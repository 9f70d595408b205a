import type { AccessMap, AreaHandlers } from "../area.js";
import { flag, isSet, toJson } from "../db/codecs.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { forgetDefaultContentSite, onOrganization } from "../organizations/index.js";
import { searchContent } from "../search/index.js";
import type { Services } from "../services.js";
import { administersSite, onSite, readsSite } from "./access.js";
import { checkAdaptiveSchema } from "./adaptive-schema.js";
import { siteHandling } from "./context.js";
import { createSiteIn } from "./create.js";
import { recordSiteEvent } from "./events.js";
import { canCreateSite, canReadSites } from "./policy.js";
import { presentAdaptiveSchema, presentSiteFor } from "./presenter.js";
import { publishedContentSite } from "./published.js";
import { searchedSpaceIds } from "./search.js";
import { setDefaultSection } from "./sections/store.js";
import { setDefaultSiteSpace } from "./site-spaces/store.js";
import { getSite, listSites, type MemberSite, updateRow } from "./store.js";
import { assertPathSegment, loadSiteStructure, siteSpacesIn } from "./structure.js";

const settings = administersSite("change the settings of this site");
const publishing = administersSite("publish or unpublish this site");

export const siteAccess = {
  listSites: onOrganization("see the sites of this organization", ({ role }) => canReadSites(role)),
  // Which spaces the new site may link (or create) is checked against the caller's role on them.
  createSite: onOrganization("create sites in this organization", ({ role }) => canCreateSite(role)),
  getSiteById: readsSite,
  updateSiteById: settings,
  deleteSiteById: onSite("delete this site", ({ role }) => canCreateSite(role)),
  getSiteAdaptiveSchema: readsSite,
  updateSiteAdaptiveSchema: settings,
  getPublishedContentSite: readsSite,
  searchSiteContent: readsSite,
  publishSite: publishing,
  unpublishSite: publishing,
} satisfies AccessMap;

export function siteHandlers(services: Services): AreaHandlers<typeof siteAccess> {
  const { db, urls, transaction } = services;
  const sites = siteHandling(services);

  /** Sets a site's published flag. */
  async function setPublished(member: MemberSite, published: boolean) {
    const { site } = member;
    await transaction(async (tx) => {
      await updateRow(tx, "sites", site.id, { published: flag(published) }, sites.now());
      if (isSet(site.published) !== published)
        await recordSiteEvent(tx, services, member, published ? "site_published" : "site_unpublished");
    });
    return ok(presentSiteFor(urls, member.role)(await getSite(db, site.id)));
  }

  return {
    async listSites({ query }, { organization, role }) {
      const page = await listSites(db, organization.id, query, query);
      return ok(presentPage(page, presentSiteFor(urls, role)));
    },

    async createSite({ body = {} }, { organization, role }) {
      const site = await transaction((tx) => createSiteIn(tx, services, organization.id, role, body));
      return created(presentSiteFor(urls, role)(await getSite(db, site.id)));
    },

    async getSiteById(_input, { site, role }) {
      return ok(presentSiteFor(urls, role)(site));
    },

    async updateSiteById({ body }, member) {
      const { site } = member;
      // Members hold their organization role on every site: there is no per-site role to set.
      if (body.defaultLevel !== undefined && body.defaultLevel !== "inherit")
        throw badRequest(
          `defaultLevel "${body.defaultLevel}" cannot be set: Quire has no per-site roles, members have their organization role on every site ("inherit").`,
        );
      await sites.changeStructure(member, async ({ tx, structure }) => {
        if (body.basename !== undefined && body.basename !== site.basename) {
          assertPathSegment(body.basename);
          const clash = await tx
            .selectFrom("sites")
            .select("id")
            .where("organization_id", "=", site.organization_id)
            .where("basename", "=", body.basename)
            .executeTakeFirst();
          if (clash)
            throw conflict(
              `The basename "${body.basename}" is already taken by another site.`,
              "basename_taken",
            );
        }
        if (typeof body.proxy === "string" && body.proxy !== site.proxy_origin) {
          const clash = await tx
            .selectFrom("sites")
            .select("id")
            .where("proxy_origin", "=", body.proxy)
            .executeTakeFirst();
          if (clash)
            throw conflict(`The proxy URL "${body.proxy}" already serves another site.`, "proxy_taken");
        }
        let defaultSection = structure.sections.find((s) => isSet(s.is_default));
        if (body.defaultSiteSection !== undefined) {
          defaultSection = structure.sections.find((s) => s.id === body.defaultSiteSection);
          if (!defaultSection)
            throw badRequest(`Section "${body.defaultSiteSection}" does not exist in this site.`);
          await setDefaultSection(tx, site.id, defaultSection.id);
        }
        if (body.defaultSiteSpace !== undefined) {
          const container = defaultSection?.id ?? null;
          if (!siteSpacesIn(structure, container).some((e) => e.row.id === body.defaultSiteSpace))
            throw badRequest(
              `Site space "${body.defaultSiteSpace}" is not ${container ? "in the default section" : "at the root"} of this site.`,
            );
          await setDefaultSiteSpace(tx, site.id, container, body.defaultSiteSpace);
        }
        await updateRow(
          tx,
          "sites",
          site.id,
          {
            ...(body.title !== undefined && { title: body.title }),
            ...(body.visibility !== undefined && { visibility: body.visibility }),
            ...(body.basename !== undefined && { basename: body.basename }),
            ...(body.adaptiveContent !== undefined && {
              adaptive_content: flag(body.adaptiveContent.enabled),
            }),
            ...(body.proxy !== undefined && { proxy_origin: body.proxy }),
          },
          sites.now(),
        );
      });
      return ok(presentSiteFor(urls, member.role)(await getSite(db, site.id)));
    },

    async deleteSiteById(_input, { site }) {
      await transaction(async (tx) => {
        // An organization no longer opens on a site that is gone.
        await forgetDefaultContentSite(tx, site.id);
        // Sections, groups, site spaces and share links go by cascade; spaces stay.
        await tx.deleteFrom("sites").where("id", "=", site.id).execute();
      });
      return noContent();
    },

    async getSiteAdaptiveSchema(_input, { site }) {
      return ok(presentAdaptiveSchema(site));
    },

    async updateSiteAdaptiveSchema({ body }, { site }) {
      checkAdaptiveSchema(body.jsonSchema);
      const now = sites.now();
      await updateRow(
        db,
        "sites",
        site.id,
        { adaptive_schema: toJson(body.jsonSchema), adaptive_schema_updated_at: now },
        now,
      );
      return ok(presentAdaptiveSchema(await getSite(db, site.id)));
    },

    async searchSiteContent({ body, query }, { site }) {
      const spaceIds = searchedSpaceIds(await loadSiteStructure(db, site), body);
      const args = { organizationId: site.organization_id, spaces: { spaceIds }, text: body.query };
      return ok(await searchContent(db, urls, args, query));
    },

    async getPublishedContentSite({ query }, member) {
      return ok(
        await publishedContentSite(db, member.site, await sites.presentation(member, query.shareKey)),
      );
    },

    publishSite: (_input, member) => setPublished(member, true),
    unpublishSite: (_input, member) => setPublished(member, false),
  };
}
