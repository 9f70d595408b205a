import { type AccessRule, accessRule, type PathParameters, pathParameter } from "../area.js";
import type { Caller } from "../auth/caller.js";
import { type MemberChangeRequest, onChangeRequest } from "../change-requests/index.js";
import type { Role, SpaceTable } from "../db/schema.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { type CommentRow, commentOf } from "./store.js";
import type { ParentView } from "./views.js";

/** The caller's standing on the parent of threads the path names: its space, their role there, the parent. */
export interface MemberParent {
  space: SpaceTable;
  role: Role;
  parent: ParentView;
}

/** The caller's standing on the comment the path names, in its parent. */
export interface MemberComment extends MemberParent {
  comment: CommentRow;
}

type Standing = Omit<MemberChangeRequest, "changeRequest"> &
  Partial<Pick<MemberChangeRequest, "changeRequest">>;

/** The parent of the caller's standing: the space's main content, or the change request it names. */
export function parentOf({ space, role, changeRequest, userId }: Standing): MemberParent {
  const spacePath = `spaces/${space.id}`;
  const viewer = { userId, role };
  const parent = changeRequest
    ? {
        spaceId: space.id,
        changeRequestId: changeRequest.id,
        revisionId: changeRequest.revision_id,
        path: `${spacePath}/change-requests/${changeRequest.id}`,
        viewer,
      }
    : { spaceId: space.id, changeRequestId: null, revisionId: space.revision_id, path: spacePath, viewer };
  return { space, role, parent };
}

/**
 * The access rules of the comment operations under one kind of parent (a space's main content, or a
 * change request of path parameter `changeRequestId`): 404 unless the caller sees the parent (and the
 * comment), 403 naming `action` unless `allows` their standing there.
 */
export function commentRules(kind: "space" | "change request") {
  const base = kind === "space" ? onSpace("read this space") : onChangeRequest("read this change request");
  const loadParent = async (services: Services, caller: Caller, path: PathParameters) =>
    parentOf({ ...(await base.standing(services, caller, path)), userId: caller.user.id });
  const loadComment = async (services: Services, caller: Caller, path: PathParameters) => {
    const member = await loadParent(services, caller, path);
    const comment = await commentOf(services.db, member.parent, pathParameter(path, "commentId"));
    return { ...member, comment };
  };
  return {
    /** On the parent itself. */
    parent: (
      action: string,
      allows: (standing: MemberParent) => boolean = () => true,
    ): AccessRule<MemberParent> => accessRule(kind, action, loadParent, allows),
    /** On the comment of path parameter `commentId` in the parent. */
    comment: (
      action: string,
      allows: (standing: MemberComment) => boolean = () => true,
    ): AccessRule<MemberComment> => accessRule("comment", action, loadComment, allows),
  };
}
