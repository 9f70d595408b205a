import type { Role } from "../db/schema.js";
import { atLeast } from "../policy.js";

/** Creating change requests, changing their subject or status, editing their content, updating them from main. */
export const canEditChangeRequests = (role: Role) => atLeast(role, "edit");

/** Merging a change request into the main content. */
export const canMergeChangeRequests = (role: Role) => atLeast(role, "review");
