import { atLeast, type Membership } from "../policy.js";

/** The audit log shows what every member did, and from where: admins only, as GitBook has it. */
export const canReadAuditLog = (role: Membership) => atLeast(role, "admin");
