import { atLeast, type Membership } from "../policy.js";

/** "You must be an organization admin to enable SSO." */
export const canManageSso = (role: Membership) => atLeast(role, "admin");
