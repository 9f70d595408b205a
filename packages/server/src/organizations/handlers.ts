import { hasSecondFactor } from "../accounts/index.js";
import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import { secondFactorRequired } from "../auth/required-factor.js";
import { createOrganization, createOrganizationWithSite } from "../commands/create-organization.js";
import { flag, isSet, toJson } from "../db/codecs.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { storedMergeRules } from "../reviews/index.js";
import type { Services } from "../services.js";
import { lockSiteOf } from "../sites/index.js";
import { onOrganization } from "./access.js";
import { canUpdateOrganization } from "./policy.js";
import { presentOrganization } from "./presenter.js";
import { hostnameTaken, listOrganizationsOfUser, type OrganizationRow, updateOrganization } from "./store.js";

export const organizationAccess = {
  listOrganizationsForAuthenticatedUser: anyCaller,
  createOrganization: anyCaller,
  getOrganizationById: onOrganization("see this organization"),
  updateOrganizationById: onOrganization("update this organization", ({ role }) =>
    canUpdateOrganization(role),
  ),
} satisfies AccessMap;

export function organizationHandlers(services: Services): AreaHandlers<typeof organizationAccess> {
  const { db, urls } = services;
  return {
    async listOrganizationsForAuthenticatedUser({ query, caller }) {
      const page = await listOrganizationsOfUser(db, { userId: caller.user.id }, query);
      return {
        status: 200,
        body: presentPage(page, ({ role, caller_owns_team, ...org }) =>
          presentOrganization(org, { role, ownsTeam: Boolean(caller_owns_team) }, urls),
        ),
      };
    },

    async createOrganization({ body, query, caller }) {
      if (query.withDefaultSite && query.openapiUrl !== undefined)
        throw badRequest(
          "openapiUrl: Quire's sites show no API reference to attach a specification to; create it with createOpenAPISpec.",
        );
      const organization = query.withDefaultSite
        ? await createOrganizationWithSite(services, caller.user.id, body)
        : await createOrganization(db, services, caller.user.id, body);
      // A new organization has no team yet.
      const presented = presentOrganization(organization, { role: "admin", ownsTeam: false }, urls);
      return { status: 201, headers: { location: presented.urls.location }, body: presented };
    },

    async getOrganizationById(_input, { organization, role, ownsTeam }) {
      return { status: 200, body: presentOrganization(organization, { role, ownsTeam }, urls) };
    },

    async updateOrganizationById({ body, caller }, { organization, role, ownsTeam }) {
      // Requiring a factor one lacks would refuse one's own next request.
      if (
        body.requireSecondFactor &&
        !isSet(organization.require_second_factor) &&
        !(await hasSecondFactor(db, caller.user.id))
      )
        throw secondFactorRequired(
          "Add a second factor to your own account (under /user/factors) before requiring one of this organization's members.",
        );
      if (body.hostname !== undefined && (await hostnameTaken(db, body.hostname, organization.id))) {
        throw conflict(
          `The hostname "${body.hostname}" is already used by another organization.`,
          "hostname_taken",
        );
      }
      const mergeRules =
        body.mergeRules === undefined
          ? undefined
          : await storedMergeRules(db, organization.id, body.mergeRules, "none");
      const changes: Partial<OrganizationRow> = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.emailDomains !== undefined && { email_domains: toJson(body.emailDomains) }),
        ...(body.hostname !== undefined && { hostname: body.hostname }),
        ...(body.defaultRole !== undefined && { default_role: body.defaultRole }),
        ...(body.defaultContent !== undefined && { default_content_site: body.defaultContent?.site ?? null }),
        ...(body.logo !== undefined && { logo_url: body.logo }),
        ...(body.sso !== undefined && { sso: flag(body.sso) }),
        ...(body.ai !== undefined && { ai: flag(body.ai) }),
        ...(body.inviteLinks !== undefined && { invite_links: flag(body.inviteLinks) }),
        ...(body.requireSecondFactor !== undefined && {
          require_second_factor: flag(body.requireSecondFactor),
        }),
        ...(mergeRules !== undefined && { merge_rules: mergeRules }),
      };
      const updated = await services.transaction(async (tx) => {
        const site = body.defaultContent?.site;
        if (site !== undefined && !(await lockSiteOf(tx, organization.id, site)))
          throw badRequest(`defaultContent: site "${site}" is not one of this organization's.`);
        return updateOrganization(tx, organization, changes, services.now());
      });
      return { status: 200, body: presentOrganization(updated, { role, ownsTeam }, urls) };
    },
  };
}
