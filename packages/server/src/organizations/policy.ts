import type { Schema } from "@quire/api-types";
import type { Role } from "../db/schema.js";
import { atLeast } from "../policy.js";

/** What a member with `role` may do on the organization (the fuller variant of the contract). */
export function organizationPermissions(role: Role): Schema<"OrganizationPermissions"> {
  const admin = atLeast(role, "admin");
  return {
    admin,
    createContent: atLeast(role, "create"),
    view: true,
    ownTeam: false,
    createOpenAPISpec: atLeast(role, "create"),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: true,
    listTeams: true,
    listIntegrations: true,
  };
}

export const canUpdateOrganization = (role: Role) => atLeast(role, "admin");
export const canCreateContent = (role: Role) => atLeast(role, "create");
