import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { notFound } from "../http/errors.js";
import type { OrganizationRole } from "../policy.js";
import { inviteForCaller } from "./store.js";
import type { InviteLinkTable } from "./tables.js";

/** The invite a path names, to a member of its organization, with their role there. */
export interface MemberInvite {
  invite: InviteLinkTable;
  role: OrganizationRole;
}

/**
 * The access rule of an operation on the invite `inviteId` of the organization `organizationId`: 404
 * unless it exists and the caller is a member of its organization (a guest is one), 403 naming
 * `action` unless `allows` their standing there.
 */
export function onInvite(
  action: string,
  allows: (standing: MemberInvite) => boolean = () => true,
): AccessRule<MemberInvite> {
  return accessRule(
    "invite",
    action,
    async ({ db }, caller, path) => {
      const { invite, callerRole } = await inviteForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        inviteId: pathParameter(path, "inviteId"),
        callerId: caller.user.id,
      });
      if (callerRole === undefined) throw notFound("Invite");
      return { invite, role: callerRole };
    },
    allows,
  );
}
