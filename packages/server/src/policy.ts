import type { Role } from "./db/schema.js";
import { forbidden } from "./http/errors.js";

/** Roles from the least to the most powerful: each role can do everything the ones before it can. */
export const ROLE_ORDER: readonly Role[] = ["read", "comment", "edit", "review", "create", "admin"];

/** A member's role in an organization; null for a guest. */
export type OrganizationRole = Role | null;

/** What the caller is in an organization: their role, null for a guest, undefined when not a member. */
export type Membership = OrganizationRole | undefined;

export function atLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf(minimum);
}

export function higherRole(a: Role, b: Role): Role {
  return atLeast(a, b) ? a : b;
}

/** Throws 403 unless the caller's role allows the action. */
export function authorize(allowed: boolean, action: string): void {
  if (!allowed) throw forbidden(`Your role does not allow you to ${action}.`);
}

/**
 * Creating collections and spaces, at an organization's top level (its role) or inside a collection
 * (the role on it). Here rather than in an area because the content tree (src/content/tree.ts) checks them.
 */
export const canCreateContent = (role: OrganizationRole | undefined) => atLeast(role, "create");
export const canCreateInCollection = (role: Role | undefined) => atLeast(role, "create");

/**
 * The one answer to "what role does this caller have on this collection or space". A member gets
 * the higher of their organization role and the content's `defaultLevel` (the least every member
 * gets there); a guest gets nothing through that floor. Direct grants to the caller or their teams
 * raise it. Undefined: the caller has no access, and the content answers 404 to them.
 */
export function roleOnContent(
  membership: Membership,
  defaultLevel: Role,
  grants: readonly Role[] = [],
): Role | undefined {
  let role = membership ? higherRole(membership, defaultLevel) : undefined;
  for (const grant of grants) role = role ? higherRole(role, grant) : grant;
  return role;
}

/**
 * A `permissions` object depends on the role alone: each is built once per role and shared, so a
 * page of 50 items does not build 50 of them.
 */
export function perRole<R extends Role | null | undefined, Permissions extends object>(
  build: (role: R) => Permissions,
): (role: R) => Readonly<Permissions> {
  const built = new Map<R, Readonly<Permissions>>();
  return (role) => {
    let permissions = built.get(role);
    if (!permissions) {
      permissions = Object.freeze(build(role));
      built.set(role, permissions);
    }
    return permissions;
  };
}
