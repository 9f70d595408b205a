import { sql } from "kysely";
import type { Role } from "./db/schema.js";
import { notFound } from "./http/errors.js";
import type { PageResult } from "./http/paging.js";
import { type Membership, type OrganizationRole, roleOnContent } from "./policy.js";

const GUEST = "guest";

/**
 * The caller's membership of the organization whose id is in `organizationColumn`, as a scalar
 * subquery to select beside a resource, so that the resource and the caller's role come back in
 * one statement: the role, `'guest'` for a guest, or null for a non-member. Read it with `membershipOf`.
 */
export function callerMembership(userId: string, organizationColumn: string) {
  return sql<string | null>`(select coalesce(m.role, ${GUEST}) from memberships m
    where m.organization_id = ${sql.ref(organizationColumn)} and m.user_id = ${userId})`;
}

export function membershipOf(selected: string | null | undefined): Membership {
  if (selected == null) return undefined;
  return selected === GUEST ? null : (selected as Role);
}

/** A collection or space as the caller sees it: the row, their organization role and their role on it. */
export interface ContentAccess<Row> {
  row: Row;
  organizationRole: OrganizationRole;
  role: Role;
}

/**
 * The result of a content lookup that selected `callerMembership(...)` as `caller_membership`:
 * 404 when nothing came back or the caller has no role on it (another organization, or a guest
 * without a grant), so that ids of other organizations reveal nothing.
 */
export function contentAccess<Row extends { default_level: Role }>(
  found: (Row & { caller_membership: string | null }) | undefined,
  what: string,
): ContentAccess<Row> {
  const membership = membershipOf(found?.caller_membership);
  if (!found || membership === undefined) throw notFound(what);
  const { caller_membership: _selected, ...row } = found;
  const role = roleOnContent(membership, row.default_level);
  if (role === undefined) throw notFound(what);
  return { row: row as unknown as Row, organizationRole: membership, role };
}

/**
 * Whether content lists show the caller everything in the organization: members yes; a guest sees
 * only what was granted to them, and grants arrive with the people area, so a guest lists nothing.
 */
export const listsAllContent = (role: OrganizationRole): boolean => role !== null;

export const emptyPage: PageResult<never> = { rows: [], count: 0 };
