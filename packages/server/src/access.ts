import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "./db/database.js";
import { preparedRead } from "./db/prepared.js";
import type { CollectionTable, Role, SpaceTable } from "./db/schema.js";
import { notFound } from "./http/errors.js";
import { type Membership, type OrganizationRole, ROLE_ORDER, roleOnContent } from "./policy.js";

const GUEST = "guest";
/** The same, written into the SQL: a constant need not be bound anew for every statement. */
const GUEST_LITERAL = sql.lit(GUEST);

/**
 * Which users this process knows to hold no grant, directly or through a team, and until when.
 * Finding a caller's grants is most of the cost of listing content, and most callers hold none:
 * their lookups leave the grants out. The token lookup records it (see `bearerAuthenticator`), for as
 * long as it trusts the token; a grant or team membership given in this process forgets it all at
 * once, one given by another process is seen within that time, as a revoked token is. Leaving grants
 * out can only show less than granted, never more: a grant taken away applies at once everywhere.
 */
class GrantHolders {
  readonly #withoutGrants = new Map<string, number>();

  /** Records whether the user holds a grant, as just read from the database, trusted for `forMs`. */
  note(userId: string, holdsGrants: boolean, forMs: number): void {
    if (holdsGrants) this.#withoutGrants.delete(userId);
    else this.#withoutGrants.set(userId, performance.now() + forMs);
  }

  /** False only for a user known to hold no grant: their lookups may leave grants out. */
  mayHoldGrants(userId: string): boolean {
    const until = this.#withoutGrants.get(userId);
    if (until === undefined) return true;
    if (until > performance.now()) return false;
    this.#withoutGrants.delete(userId);
    return true;
  }

  /** A grant or team membership was given: nobody is known to hold none any more. */
  forgetAll(): void {
    this.#withoutGrants.clear();
  }
}

export const grantHolders = new GrantHolders();

/**
 * A content lookup made in two shapes, with the caller's grants and without them, each compiled
 * once: the call takes the one without for a caller known to hold none.
 */
export function grantAware<A extends { userId: string }, Rest extends unknown[], Result>(
  make: (withGrants: boolean) => (db: Db, args: A, ...rest: Rest) => Result,
): (db: Db, args: A, ...rest: Rest) => Result {
  const withGrants = make(true);
  const withoutGrants = make(false);
  return (db, args, ...rest) =>
    (grantHolders.mayHoldGrants(args.userId) ? withGrants : withoutGrants)(db, args, ...rest);
}

/** SQL: whether the user holds any grant, directly or through one of their teams. */
export function holdsAnyGrant(userId: Expression<string>) {
  return sql<SqlBool>`exists (select 1 from content_permissions g
    where g.principal_id = ${userId}
      or g.principal_id in (select tm.team_id from team_members tm where tm.user_id = ${userId}))`;
}

/**
 * SQL: whether the user owns a team of the organization whose id is in `organizationId` (GitBook's
 * `Organization.permissions.ownTeam`: a team's owners manage its members, teams/policy.ts), to select
 * beside the organization in the statement that reads it. Read it with `Boolean`.
 */
export function callerOwnsTeam(userId: string, organizationId: Expression<string>) {
  return sql<SqlBool>`exists (select 1 from team_members tm inner join teams t on t.id = tm.team_id
    where tm.user_id = ${userId} and tm.role = 'owner' and t.organization_id = ${organizationId})`;
}

/**
 * The caller's membership of the organization whose id is in `organizationColumn`, as a scalar
 * subquery to select beside a resource, so that the resource and the caller's role come back in
 * one statement: the role, `'guest'` for a guest, or null for a non-member. Read it with `membershipOf`.
 */
export function callerMembership(userId: string, organizationId: string | Expression<string>) {
  return sql<string | null>`(select coalesce(m.role, ${GUEST_LITERAL}) from memberships m
    where m.organization_id = ${organizationId} and m.user_id = ${userId})`;
}

/**
 * SQL: the caller lists everything of the organization, being a member and not a guest. A guest
 * lists only what was granted to them: see `listsContent`.
 */
export function listsAllContent(userId: string, organizationId: string | Expression<string>) {
  return sql<SqlBool>`${callerMembership(userId, organizationId)} <> ${GUEST_LITERAL}`;
}

/**
 * SQL: the caller lists this collection or space, being a member who is not a guest, or a guest
 * with a grant on it (`grant` is its `grantedRank`).
 */
export function listsContent(
  userId: string,
  organizationId: string | Expression<string>,
  grant: Expression<number | null>,
) {
  const membership = callerMembership(userId, organizationId);
  return sql<SqlBool>`(${membership} <> ${GUEST_LITERAL} or (${membership} = ${GUEST_LITERAL} and ${grant} is not null))`;
}

/**
 * SQL: the highest role granted to the user, directly or through one of their teams, on the
 * collection or space `contentId` or on any collection above it (whose parent is `parentId`), as
 * its rank (`roleOfRank`), or null without a grant. A scalar subquery, selected beside the content
 * as `caller_grant`, so that grants cost no statement of their own.
 */
export function grantedRank(
  userId: string | Expression<string>,
  contentId: Expression<string>,
  parentId: Expression<string | null>,
) {
  const principals = sql`(select ${userId} union all select tm.team_id from team_members tm where tm.user_id = ${userId})`;
  // Most callers hold no grant: the first probe, by principal, spares them the walk up the tree.
  return sql<
    number | null
  >`(case when exists (select 1 from content_permissions g0 where g0.principal_id in ${principals})
    then (with recursive ancestors(id) as (
      select cast(${parentId} as text)
      union all
      select c.parent_id from collections c inner join ancestors a on c.id = a.id where c.parent_id is not null)
    select max(${rankOf(sql.ref("g.role"))}) from content_permissions g
    where (g.content_id = ${contentId} or g.content_id in (select id from ancestors))
      and g.principal_id in ${principals}) end)`;
}

/** SQL: `grantedRank`, or null in the shape of a lookup that leaves grants out (see `grantAware`). */
export function callerGrant(
  withGrants: boolean,
  userId: string,
  contentId: Expression<string>,
  parentId: Expression<string | null>,
) {
  return withGrants ? grantedRank(userId, contentId, parentId) : sql<number | null>`null`;
}

/** The highest role granted to the user on the collection or space of the row, or above it (see `grantedRank`). */
export const contentGrant = (table: "collections" | "spaces", withGrants: boolean, userId: string) =>
  callerGrant(withGrants, userId, sql.ref(`${table}.id`), sql.ref(`${table}.parent_id`));

interface ContentRows {
  collections: CollectionTable;
  spaces: SpaceTable;
}

/**
 * A collection or space by id with the caller's membership of its organization and their grant on it,
 * in one prepared statement (read it with `contentAccess`).
 */
export function contentWithCaller<T extends keyof ContentRows>(table: T) {
  const read = grantAware((withGrants) =>
    preparedRead((db, args: { id: string; userId: string }) =>
      db
        .selectFrom(table as "spaces")
        .selectAll()
        .select(callerMembership(args.userId, sql.ref(`${table}.organization_id`)).as("caller_membership"))
        .select(contentGrant(table, withGrants, args.userId).as("caller_grant"))
        .where("id", "=", args.id),
    ),
  );
  // Built on the spaces table's types; the SQL is the same for either table.
  return read as unknown as (
    db: Db,
    args: { id: string; userId: string },
  ) => Promise<(ContentRows[T] & { caller_membership: string | null; caller_grant: number | null })[]>;
}

/** SQL: the rank of a role column, 1 for `read` to 6 for `admin` (see `roleOfRank`). */
export function rankOf(role: Expression<string | null>) {
  return sql<number | null>`case ${role} ${sql.join(
    ROLE_ORDER.map((r, i) => sql`when ${sql.lit(r)} then ${sql.lit(i + 1)}`),
    sql` `,
  )} end`;
}

/** The role of a rank `rankOf` or `grantedRank` computed; none for null. */
export function roleOfRank(rank: number | string | null | undefined): Role | undefined {
  return rank == null ? undefined : ROLE_ORDER[Number(rank) - 1];
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

/** The caller's role on a collection or space read with `caller_grant` (see `grantedRank`). */
export function roleOnRow(
  membership: OrganizationRole,
  row: { default_level: Role; caller_grant?: number | string | null },
): Role | undefined {
  const granted = roleOfRank(row.caller_grant);
  return roleOnContent(membership, row.default_level, granted ? [granted] : []);
}

/**
 * The result of a content lookup that selected `callerMembership(...)` as `caller_membership` and
 * `grantedRank(...)` as `caller_grant`: 404 when nothing came back or the caller has no role on it
 * (another organization, or a guest without a grant), so that ids of other organizations reveal nothing.
 */
export function contentAccess<Row extends { default_level: Role }>(
  found: (Row & { caller_membership: string | null; caller_grant?: number | string | null }) | undefined,
  what: string,
): ContentAccess<Row> {
  const membership = membershipOf(found?.caller_membership);
  if (!found || membership === undefined) throw notFound(what);
  const { caller_membership: _selected, caller_grant: _grant, ...row } = found;
  const role = roleOnRow(membership, found);
  if (role === undefined) throw notFound(what);
  return { row: row as unknown as Row, organizationRole: membership, role };
}
