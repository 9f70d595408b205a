import { membershipOf } from "../access.js";
import { notFound } from "../http/errors.js";
import type { OrganizationRole } from "../policy.js";

/**
 * The row of a lookup that selected `callerMembership(...)` as `caller_membership`, without that
 * column, and the caller's role: 404 naming `what` when nothing came back or the caller is not a
 * member, alike, so that what other organizations hold reveals nothing.
 */
export function memberLookup<Row extends { caller_membership: string | null }>(
  found: Row | undefined,
  what: string,
): { row: Omit<Row, "caller_membership">; role: OrganizationRole } {
  const role = membershipOf(found?.caller_membership);
  if (!found || role === undefined) throw notFound(what);
  const { caller_membership: _selected, ...row } = found;
  return { row, role };
}
