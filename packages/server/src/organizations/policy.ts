import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole, perRole } from "../policy.js";

/** What a member with `role` may do on the organization (the fuller variant of the contract). */
const permissionsOfRole = perRole(
  (role: OrganizationRole): Omit<Schema<"OrganizationPermissions">, "ownTeam"> => {
    const admin = atLeast(role, "admin");
    return {
      admin,
      createContent: atLeast(role, "create"),
      view: true,
      access: true,
      createOpenAPISpec: atLeast(role, "create"),
      ingestConversations: admin,
      viewBilling: admin,
      // Guests see only content granted to them, never who else is in the organization.
      listMembers: role !== null,
      listTeams: role !== null,
      listIntegrations: true,
      listInstallations: admin,
      installIntegration: admin,
    };
  },
);

/** What the caller may do on the organization, with their role and whether they own one of its teams. */
export const organizationPermissions = (
  role: OrganizationRole,
  ownsTeam: boolean,
): Schema<"OrganizationPermissions"> => ({ ...permissionsOfRole(role), ownTeam: ownsTeam });

export const canUpdateOrganization = (role: OrganizationRole | undefined) => atLeast(role, "admin");
/**
 * Taking a collection or space out of its organization. Only the organization role counts: a
 * content's `defaultLevel` never gives the power to move content out of the organization.
 */
export const canTransferOut = (role: OrganizationRole) => atLeast(role, "admin");
