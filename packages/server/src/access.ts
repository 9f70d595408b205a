import { type Expression, type SqlBool, sql } from "kysely";
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
export function callerMembership(userId: string, organizationId: string | Expression<string>) {
  return sql<string | null>`(select coalesce(m.role, ${GUEST}) from memberships m
    where m.organization_id = ${organizationId} and m.user_id = ${userId})`;
}

/**
 * SQL: the caller lists every collection and space of the organization, being a member and not a
 * guest. A guest lists only what was granted to them, and grants arrive with the people area.
 */
export function listsAllContent(userId: string, organizationId: string | Expression<string>) {
  return sql<SqlBool>`${callerMembership(userId, organizationId)} <> ${GUEST}`;
}

/**
 * The caller's organization role, read off a page of rows that selected `caller_membership`. An
 * empty page cannot tell, so `lookup` asks (and answers 404 to a non-member).
 */
export async function membershipOfPage(
  page: PageResult<{ caller_membership: string | null }>,
  lookup: () => Promise<OrganizationRole>,
): Promise<OrganizationRole> {
  const membership = membershipOf(page.rows[0]?.caller_membership);
  return membership === undefined ? lookup() : membership;
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
