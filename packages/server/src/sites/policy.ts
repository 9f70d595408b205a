import { atLeast, type OrganizationRole } from "../policy.js";

/**
 * Who may do what on sites (behaviour §4.2). Quire has no per-site roles, so the organization role
 * decides: every member but a guest reads sites; creators create, delete and arrange them (sections,
 * groups, site spaces); only administrators change their settings (audience, publishing, share
 * links, visitor authentication, adaptive content).
 */
export const canReadSites = (role: OrganizationRole) => role !== null;
export const canCreateSite = (role: OrganizationRole) => atLeast(role, "create");
export const canChangeSiteStructure = (role: OrganizationRole) => atLeast(role, "create");
export const canManageSiteSettings = (role: OrganizationRole) => atLeast(role, "admin");

/** `Site.permissions`: what `role` allows on a site, by the rules above. */
export const sitePermissions = (role: OrganizationRole) => ({
  view: canReadSites(role),
  access: canReadSites(role),
  edit: atLeast(role, "edit"),
  create: canChangeSiteStructure(role),
  admin: canManageSiteSettings(role),
  installIntegration: canManageSiteSettings(role),
  viewAdaptiveSchema: canReadSites(role),
  editAdaptiveSchema: canManageSiteSettings(role),
});
