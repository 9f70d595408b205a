import type { Transaction } from "../db/database.js";
import { type MembershipChange, removeMembership } from "../members/index.js";
import { removeGrantsOf } from "../permissions/index.js";
import { removeFromTeamsOf } from "../teams/index.js";

/**
 * Removes a member from an organization with what hangs on their membership there: their team
 * memberships (teams), their grants (permissions) and the membership itself (members), each written by
 * its own area. A command, since `teams` imports `members` (and `permissions` imports `teams`): `members`
 * calling them would close a cycle. The next request of the user fails on every server process, since
 * each reads the membership.
 */
export async function removeMember(
  tx: Transaction,
  change: MembershipChange,
  organizationId: string,
  userId: string,
): Promise<void> {
  await removeFromTeamsOf(tx, organizationId, userId);
  await removeGrantsOf(tx, organizationId, userId);
  await removeMembership(tx, change, organizationId, userId);
}
