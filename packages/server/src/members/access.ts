import { type AccessRule, accessRule, pathParameter } from "../area.js";
import type { OrganizationRole } from "../policy.js";
import { existingMember, type MemberRow } from "./store.js";

/** The member a path names, with the caller's role in their organization. */
export interface CallerOnMember {
  callerRole: OrganizationRole;
  member: MemberRow;
}

/**
 * The access rule of an operation on the member `userId` of the organization `organizationId`: 404
 * unless the caller is in the organization and the user a member of it, 403 naming `action` unless
 * `allows` the caller's standing there.
 */
export function onMember(
  action: string,
  allows: (standing: CallerOnMember) => boolean = () => true,
): AccessRule<CallerOnMember> {
  return accessRule(
    "member",
    action,
    ({ db }, caller, path) =>
      existingMember(db, {
        organizationId: pathParameter(path, "organizationId"),
        userId: pathParameter(path, "userId"),
        callerId: caller.user.id,
      }),
    allows,
  );
}
