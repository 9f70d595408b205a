import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole, perRole } from "../policy.js";

/** Reading the fields of an organization: every member but guests, who see only content granted to them. */
export const canViewCustomFields = (role: OrganizationRole) => role !== null;

/** Creating, changing and deleting fields, as other organization settings. */
export const canManageCustomFields = (role: OrganizationRole) => atLeast(role, "admin");

export const customFieldPermissions = perRole(
  (role: OrganizationRole): Schema<"ViewEditPermissions"> => ({
    view: true,
    edit: canManageCustomFields(role),
  }),
);
