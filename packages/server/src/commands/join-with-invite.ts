import { type InvitedContent, type InviteLinkTable, isRedundant, joinWithRole } from "../invites/index.js";
import { lockMemberships } from "../members/index.js";
import { type GrantedContent, setGrants } from "../permissions/index.js";
import type { Membership } from "../policy.js";
import type { Services } from "../services.js";

/** The content a grant is changed on, as the permissions area takes it. */
const grantedContent = ({ kind, row }: InvitedContent): GrantedContent => ({
  kind,
  id: row.id,
  organizationId: row.organization_id,
  parentId: row.parent_id,
  defaultLevel: row.default_level,
});

/**
 * `userId` joins the organization through an invite link, in one transaction: an invite to the
 * organization gives its role; an invite to a space or collection (`content`) makes a non-member a
 * guest (invites) with the link's level there as a grant (permissions), unless they already have it.
 */
export async function joinWithInvite(
  services: Services,
  invite: InviteLinkTable,
  content: InvitedContent | undefined,
  userId: string,
  current: Membership,
): Promise<void> {
  const change = { ...services, actorId: userId };
  await services.transaction(async (tx) => {
    await lockMemberships(tx, invite.organization_id);
    const role = content ? null : invite.role;
    await joinWithRole(tx, change, { organizationId: invite.organization_id, userId, role }, current);
    if (content && invite.role !== null && !isRedundant(content.role, invite.role))
      await setGrants(
        tx,
        services,
        userId,
        grantedContent(content),
        { users: [userId], teams: [] },
        invite.role,
      );
  });
}
