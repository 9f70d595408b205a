import type { Role } from "../db/schema.js";
import { atLeast, type Membership, type OrganizationRole } from "../policy.js";

/** Invitations, by email or by link, are managed by the organization's admins. */
export const canManageInvites = (role: OrganizationRole) => atLeast(role, "admin");

/** An invite is redundant when the caller already has every permission it grants. */
export const isRedundant = (callerRole: Membership, inviteRole: Role) => atLeast(callerRole, inviteRole);
