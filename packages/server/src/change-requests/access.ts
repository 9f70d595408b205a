import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { spaceForCaller } from "../spaces/index.js";
import { type ChangeRequestRow, changeRequestOf } from "./store.js";

/**
 * The caller's standing on a change request: its space, their roles there, the change request, and
 * who the caller is (`userId`: what they may do with its comments depends on it).
 */
export type MemberChangeRequest = Awaited<ReturnType<typeof spaceForCaller>> & {
  changeRequest: ChangeRequestRow;
  userId: string;
};

/**
 * The access rule of an operation on the change request of path parameters `spaceId` and
 * `changeRequestId` (its id or its number): 404 unless the caller has a role on the space and the space
 * has that change request, 403 naming `action` unless `allows` their standing there.
 */
export function onChangeRequest(
  action: string,
  allows: (standing: MemberChangeRequest) => boolean = () => true,
): AccessRule<MemberChangeRequest> {
  return accessRule(
    "change request",
    action,
    async ({ db, clock }, caller, path) => {
      const member = await spaceForCaller(db, pathParameter(path, "spaceId"), caller.user.id, clock.now());
      const changeRequest = await changeRequestOf(
        db,
        member.space.id,
        pathParameter(path, "changeRequestId"),
      );
      return { ...member, changeRequest, userId: caller.user.id };
    },
    allows,
  );
}
