import type { Role } from "../db/schema.js";
import { atLeast } from "../policy.js";

/** Reviewing a change request, or being asked to: the role that may merge one. */
export const canReview = (role: Role) => atLeast(role, "review");
