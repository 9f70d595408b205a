import type { Role } from "../db/schema.js";
import { atLeast, type OrganizationRole } from "../policy.js";

/** Who has which role on content is shown to members who reach it, never to guests. */
export const canViewGrants = (organizationRole: OrganizationRole) => organizationRole !== null;

/**
 * Creators manage permissions at the content level; nobody gives a role above their own there, so
 * that a grant never raises its giver.
 */
export const canGrant = (role: Role, granted: Role | null | undefined) =>
  atLeast(role, "create") && (granted == null || atLeast(role, granted));
