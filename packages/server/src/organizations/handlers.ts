import { createOrganization } from "../commands/create-organization.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canUpdateOrganization } from "./policy.js";
import { presentOrganization } from "./presenter.js";
import {
  hostnameTaken,
  listOrganizationsOfUser,
  type OrganizationRow,
  organizationForCaller,
  updateOrganization,
} from "./store.js";

const flag = (value: boolean) => (value ? 1 : 0);

export function organizationHandlers(
  services: Services,
): AreaHandlers<
  | "listOrganizationsForAuthenticatedUser"
  | "createOrganization"
  | "getOrganizationById"
  | "updateOrganizationById"
> {
  const { db, urls } = services;
  return {
    async listOrganizationsForAuthenticatedUser({ query, caller }) {
      const page = await listOrganizationsOfUser(db, { userId: caller.user.id }, query);
      return {
        status: 200,
        body: presentPage(page, ({ role, ...org }) => presentOrganization(org, role, urls)),
      };
    },

    async createOrganization({ body, caller }) {
      const organization = await createOrganization(db, services, caller.user.id, body);
      const presented = presentOrganization(organization, "admin", urls);
      return { status: 201, headers: { location: presented.urls.location }, body: presented };
    },

    async getOrganizationById({ path, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      return { status: 200, body: presentOrganization(organization, role, urls) };
    },

    async updateOrganizationById({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canUpdateOrganization(role), "update this organization");
      if (body.hostname !== undefined && (await hostnameTaken(db, body.hostname, organization.id))) {
        throw conflict(
          `The hostname "${body.hostname}" is already used by another organization.`,
          "hostname_taken",
        );
      }
      if (body.defaultContent) {
        // No site can exist yet: sites arrive with their own area.
        throw badRequest(`Site "${body.defaultContent.site}" does not exist in this organization.`);
      }
      const changes: Partial<OrganizationRow> = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.emailDomains !== undefined && { email_domains: JSON.stringify(body.emailDomains) }),
        ...(body.hostname !== undefined && { hostname: body.hostname }),
        ...(body.defaultRole !== undefined && { default_role: body.defaultRole }),
        ...(body.defaultContent === null && { default_content_site: null }),
        ...(body.logo !== undefined && { logo_url: body.logo }),
        ...(body.sso !== undefined && { sso: flag(body.sso) }),
        ...(body.ai !== undefined && { ai: flag(body.ai) }),
        ...(body.inviteLinks !== undefined && { invite_links: flag(body.inviteLinks) }),
      };
      const updated = await updateOrganization(db, organization, changes, services.now());
      return { status: 200, body: presentOrganization(updated, role, urls) };
    },
  };
}
