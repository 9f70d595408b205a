import type { Role } from "./db/schema.js";
import { forbidden } from "./http/errors.js";

/** Roles from the least to the most powerful: each role can do everything the ones before it can. */
const ROLE_ORDER: readonly Role[] = ["read", "comment", "edit", "review", "create", "admin"];

export function atLeast(role: Role | undefined, minimum: Role): boolean {
  return role !== undefined && ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(minimum);
}

export function higherRole(a: Role, b: Role): Role {
  return atLeast(a, b) ? a : b;
}

/** Throws 403 unless the caller's role allows the action. */
export function authorize(allowed: boolean, action: string): void {
  if (!allowed) throw forbidden(`Your role does not allow you to ${action}.`);
}

/**
 * A member's role on a collection or space: the content's `defaultLevel` is the least every member
 * of its organization gets there, so the effective role is the higher of the two.
 */
export function contentRole(organizationRole: Role, defaultLevel: Role): Role {
  return higherRole(organizationRole, defaultLevel);
}
