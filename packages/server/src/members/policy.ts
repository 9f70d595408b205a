import { atLeast, type OrganizationRole } from "../policy.js";

/** Guests see only content granted to them, never who else is in the organization. */
export const canViewMembers = (role: OrganizationRole) => role !== null;
export const canManageMembers = (role: OrganizationRole) => atLeast(role, "admin");
/** The spaces a member reaches are shown to admins and to the member themself. */
export const canViewMemberSpaces = (role: OrganizationRole, self: boolean) => self || canManageMembers(role);
