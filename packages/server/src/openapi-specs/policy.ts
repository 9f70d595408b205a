import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole, perRole } from "../policy.js";

/** Guests see only content granted to them, and specifications are not content. */
export const canViewSpecs = (role: OrganizationRole) => role !== null;
/** The same rule as the organization's `createOpenAPISpec` permission. */
export const canEditSpecs = (role: OrganizationRole) => atLeast(role, "create");

export const specPermissions = perRole(
  (role: OrganizationRole): Schema<"ViewEditPermissions"> => ({
    view: canViewSpecs(role),
    edit: canEditSpecs(role),
  }),
);
