import { atLeast, type Membership } from "../policy.js";

/** Webhooks send everything that happens in the organization: its admins alone manage them. */
export const canManageWebhooks = (role: Membership) => atLeast(role, "admin");
