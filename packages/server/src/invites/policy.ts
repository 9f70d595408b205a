import type { Role } from "../db/schema.js";
import { atLeast, type Membership, type OrganizationRole } from "../policy.js";

/** Invitations, by email or by link, are managed by the organization's admins. */
export const canManageInvites = (role: OrganizationRole) => atLeast(role, "admin");

/**
 * An invite is redundant when the caller already has every permission it grants: a role at least
 * the invite's in the organization (any membership, for a guest's invite), or a level at least the
 * invite's on its space or collection.
 */
export const isRedundant = (held: Membership, given: Role | null) =>
  given === null ? held !== undefined : atLeast(held, given);
