import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole, perRole } from "../policy.js";

/** Translation settings are for organization admins alone, to read as well as to change. */
export const canManageTranslations = (role: OrganizationRole | undefined) => atLeast(role, "admin");

export const translationSettingsPermissions = perRole(
  (role: OrganizationRole): Schema<"ViewEditPermissions"> => ({
    view: canManageTranslations(role),
    edit: canManageTranslations(role),
  }),
);
