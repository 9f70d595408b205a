import { membershipOfPage } from "../access.js";
import type { Caller } from "../auth/caller.js";
import { authorizeCreateUnder, endPosition, lockContentTree } from "../content/tree.js";
import type { Db } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import {
  forgetDefaultContentSite,
  organizationForCaller,
  organizationRoleOf,
} from "../organizations/index.js";
import { authorize, type OrganizationRole } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { setDefaultSection } from "../site-sections/index.js";
import { linkableSpace, linkSpace, setDefaultSiteSpace } from "../site-spaces/index.js";
import { insertSpace } from "../spaces/index.js";
import { checkAdaptiveSchema } from "./adaptive-schema.js";
import { type SitePath, siteHandling } from "./context.js";
import { canCreateSite, canManageSiteSettings } from "./policy.js";
import { presentAdaptiveSchema, presentSiteFor } from "./presenter.js";
import { publishedContentSite } from "./published.js";
import { getSite, insertSite, listSites, updateSite } from "./store.js";
import { assertPathSegment, siteSpacesIn } from "./structure.js";
import type { SiteTable } from "./tables.js";
import { newVisitorAuthKey, sealVisitorAuthKey } from "./visitor-auth.js";

const SETTINGS = "change the settings of this site";
const SPACE_TITLE_MAX = 50;

export function siteHandlers(
  services: Services,
): AreaHandlers<
  | "listSites"
  | "createSite"
  | "getSiteById"
  | "updateSiteById"
  | "deleteSiteById"
  | "getSiteAdaptiveSchema"
  | "updateSiteAdaptiveSchema"
  | "getPublishedContentSite"
  | "publishSite"
  | "unpublishSite"
> {
  const { db, urls, ids, secretKey } = services;
  const sites = siteHandling(services);
  const present = presentSiteFor(urls);

  /** A new space for a new site (`spaces: "empty" | "sample"`), at the organization's top level. */
  async function newSpaceFor(tx: Db, organizationId: string, role: OrganizationRole, title: string) {
    await lockContentTree(tx, [organizationId]);
    await authorizeCreateUnder(tx, organizationId, role, null);
    return insertSpace(tx, services, {
      organization_id: organizationId,
      parent_id: null,
      title: [...title].slice(0, SPACE_TITLE_MAX).join(""),
      emoji: "",
      visibility: "private",
      edit_mode: "live",
      default_level: "read",
      position: await endPosition(tx, organizationId, null),
    });
  }

  /** Sets a site's published flag, as its administrators may. */
  async function setPublished(path: SitePath, caller: Caller, published: 0 | 1) {
    const { site } = await sites.site(path, caller, canManageSiteSettings, "publish or unpublish this site");
    await updateSite(db, site.id, { published }, sites.now());
    return ok(present(await getSite(db, site.id)));
  }

  return {
    async listSites({ path, query, caller }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const page = await listSites(db, args, query, query);
      const role = await membershipOfPage(page, () => organizationRoleOf(db, args));
      authorize(role !== null, "see the sites of this organization");
      return ok(presentPage(page, present));
    },

    async createSite({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canCreateSite(role), "create sites in this organization");
      const now = sites.now();
      const title = body.title ?? "Untitled site";
      const id = ids.next();
      const site: SiteTable = {
        id,
        organization_id: organization.id,
        type: body.type ?? "basic",
        title,
        basename: null,
        proxy_origin: null,
        visibility: body.visibility ?? "public",
        published: 0,
        adaptive_content: 0,
        adaptive_schema: null,
        adaptive_schema_updated_at: null,
        auth_backend: "custom",
        auth_key: sealVisitorAuthKey(secretKey, id, newVisitorAuthKey()),
        auth_fallback_url: null,
        auth_logout_url: null,
        created_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (tx) => {
        let spaces: SpaceTable[] = [];
        if (Array.isArray(body.spaces)) {
          for (const spaceId of new Set(body.spaces))
            spaces.push(await linkableSpace(tx, organization.id, role, spaceId));
        } else if (body.spaces !== undefined) {
          // `sample` would bring starter pages; pages belong to the content area, so both start empty.
          spaces = [await newSpaceFor(tx, organization.id, role, title)];
        }
        await insertSite(tx, site);
        for (const space of spaces)
          await linkSpace(tx, { id: ids.next(), siteId: site.id, sectionId: null, space, now });
      });
      return created(present(await getSite(db, site.id)));
    },

    async getSiteById({ path, caller }) {
      const { site } = await sites.site(path, caller);
      return ok(present(site));
    },

    async updateSiteById({ path, body, caller }) {
      const member = await sites.site(path, caller, canManageSiteSettings, SETTINGS);
      const { site } = member;
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
        let defaultSection = structure.sections.find((s) => s.is_default === 1);
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
        await updateSite(
          tx,
          site.id,
          {
            ...(body.title !== undefined && { title: body.title }),
            ...(body.visibility !== undefined && { visibility: body.visibility }),
            ...(body.basename !== undefined && { basename: body.basename }),
            ...(body.adaptiveContent !== undefined && {
              adaptive_content: body.adaptiveContent.enabled ? 1 : 0,
            }),
            ...(body.proxy !== undefined && { proxy_origin: body.proxy }),
          },
          sites.now(),
        );
      });
      return ok(present(await getSite(db, site.id)));
    },

    async deleteSiteById({ path, caller }) {
      const { site } = await sites.site(path, caller, canCreateSite, "delete this site");
      await db.transaction().execute(async (tx) => {
        // An organization no longer opens on a site that is gone.
        await forgetDefaultContentSite(tx, site.id);
        // Sections, groups, site spaces and share links go by cascade; spaces stay.
        await tx.deleteFrom("sites").where("id", "=", site.id).execute();
      });
      return noContent();
    },

    async getSiteAdaptiveSchema({ path, caller }) {
      const { site } = await sites.site(path, caller);
      return ok(presentAdaptiveSchema(site));
    },

    async updateSiteAdaptiveSchema({ path, body, caller }) {
      const { site } = await sites.site(path, caller, canManageSiteSettings, SETTINGS);
      checkAdaptiveSchema(body.jsonSchema);
      const now = sites.now();
      await updateSite(
        db,
        site.id,
        { adaptive_schema: JSON.stringify(body.jsonSchema), adaptive_schema_updated_at: now },
        now,
      );
      return ok(presentAdaptiveSchema(await getSite(db, site.id)));
    },

    async getPublishedContentSite({ path, query, caller }) {
      const member = await sites.site(path, caller);
      return ok(
        await publishedContentSite(db, member.site, await sites.presentation(member, query.shareKey)),
      );
    },

    publishSite: ({ path, caller }) => setPublished(path, caller, 1),
    unpublishSite: ({ path, caller }) => setPublished(path, caller, 0),
  };
}
