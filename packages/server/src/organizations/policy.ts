import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole, perRole } from "../policy.js";

/** What a member with `role` may do on the organization (the fuller variant of the contract). */
export const organizationPermissions = perRole(
  (role: OrganizationRole): Schema<"OrganizationPermissions"> => {
    const admin = atLeast(role, "admin");
    return {
      admin,
      createContent: atLeast(role, "create"),
      view: true,
      access: true,
      ownTeam: false,
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

export const canUpdateOrganization = (role: OrganizationRole | undefined) => atLeast(role, "admin");
/**
 * Taking a collection or space out of its organization. Only the organization role counts: a
 * content's `defaultLevel` never gives the power to move content out of the organization.
 */
export const canTransferOut = (role: OrganizationRole) => atLeast(role, "admin");
