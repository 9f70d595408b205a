import type { HandlerInput, Schema } from "@quire/api-types";
import type { Caller } from "../auth/caller.js";
import { changeRequestOf } from "../change-requests/index.js";
import type { Role, SpaceTable } from "../db/schema.js";
import { badRequest } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { assertSpaceNotDeleted, spaceForCaller } from "../spaces/index.js";
import { canComment, canDeleteText, canEditText } from "./policy.js";
import { presentComment, presentReply } from "./presenter.js";
import {
  commentOf,
  deleteComment,
  deleteReply,
  insertComment,
  insertReply,
  listComments,
  listReplies,
  lockComment,
  react,
  replyOf,
  updateComment,
  updateReplyBody,
} from "./store.js";
import { pageTrees } from "./targets.js";
import { commentsView, type ParentView, repliesView } from "./views.js";

/** The path of a parent: a space (its main content), or one of its change requests. */
type ParentPath = { spaceId: string } | { spaceId: string; changeRequestId: string };

/** One operation for both parents: the space variant's input, with the path of either parent. */
type Input<Id extends SpaceOperation> = Omit<HandlerInput<Id, Caller>, "path"> & {
  path: ParentPath & Omit<HandlerInput<Id, Caller>["path"], "spaceId">;
};

type SpaceOperation =
  | "listCommentsInSpace"
  | "postCommentInSpace"
  | "getCommentInSpace"
  | "updateCommentInSpace"
  | "deleteCommentInSpace"
  | "listCommentRepliesInSpace"
  | "postCommentReplyInSpace"
  | "getCommentReplyInSpace"
  | "updateCommentReplyInSpace"
  | "deleteCommentReplyInSpace";

/** The Markdown of a body sent in either form: Markdown, or GitBook's document envelope holding it. */
const markdownOf = (body: Schema<"CommentBodyInput">) => ("document" in body ? body.document : body).markdown;

/** The parts of a change to a comment or reply, each allowed to a different caller. */
interface ChangeParts {
  body?: unknown;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

interface Member {
  parent: ParentView;
  space: SpaceTable;
  role: Role;
}

const COMMENT = "comment in this space";
const EDIT = "change the text of a comment or reply you did not write";
const DELETE = "delete a comment or reply you did not write";

/**
 * The comment operations, written once: a space's main content and a change request each hold
 * threads, and every operation takes either parent's path.
 */
function commentOperations(services: Services) {
  const { db, urls, clock, ids, now } = services;

  /** The parent with the caller's role on its space: 404 when the caller cannot see it. */
  const memberOf = async (path: ParentPath, userId: string): Promise<Member> => {
    const { space, role } = await spaceForCaller(db, path.spaceId, userId, clock.now());
    const spacePath = `spaces/${space.id}`;
    if (!("changeRequestId" in path)) {
      const parent = {
        spaceId: space.id,
        changeRequestId: null,
        revisionId: space.revision_id,
        path: spacePath,
      };
      return { space, role, parent };
    }
    const changeRequest = await changeRequestOf(db, space.id, path.changeRequestId);
    const parent = {
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      revisionId: changeRequest.revision_id,
      path: `${spacePath}/change-requests/${changeRequest.id}`,
    };
    return { space, role, parent };
  };

  /** A write, once the space may change (409 while it is deleted), in one transaction. */
  const write = <T>(member: Member, work: (tx: typeof db) => Promise<T>) => {
    assertSpaceNotDeleted(member.space);
    return db.transaction().execute(work);
  };

  const presentOne = async (parent: ParentView, commentId: string) => {
    const row = await commentOf(db, parent, commentId);
    return presentComment(row, await commentsView(db, urls, parent, [row]));
  };

  const presentOneReply = async (parent: ParentView, commentId: string, replyId: string) => {
    const row = await replyOf(db, commentId, replyId);
    return presentReply(row, await repliesView(db, urls, parent, [row]));
  };

  /** What `resolved` asks of a thread: resolved by the caller now, reopened (null), or nothing. */
  const resolution = (resolved: boolean | undefined, userId: string) =>
    resolved === undefined ? undefined : resolved ? { at: now(), by: userId } : null;

  /**
   * Checks each part of a change to a comment or reply written by `authorId` before any applies, so
   * that one forbidden part refuses the whole request. False when the change asks for nothing.
   */
  const authorizeChange = (member: Member, callerId: string, authorId: string, change: ChangeParts) => {
    const reacts = (change.addedReactions?.length ?? 0) + (change.removedReactions?.length ?? 0) > 0;
    if (change.body !== undefined) authorize(canEditText(member.role, callerId, authorId), EDIT);
    if (change.resolved !== undefined || reacts) authorize(canComment(member.role), COMMENT);
    return change.body !== undefined || change.resolved !== undefined || reacts;
  };

  return {
    async list({ path, query, caller }: Input<"listCommentsInSpace">) {
      const { parent } = await memberOf(path, caller.user.id);
      const page = await listComments(
        db,
        parent,
        { status: query.status ?? "all", targetPage: query.targetPage ?? null, order: query.order ?? "desc" },
        query,
      );
      const view = await commentsView(db, urls, parent, page.rows);
      return ok(presentPage(page, (row) => presentComment(row, view)));
    },

    async post({ path, body, caller }: Input<"postCommentInSpace">) {
      const member = await memberOf(path, caller.user.id);
      const { parent } = member;
      authorize(canComment(member.role), COMMENT);
      if (body.node !== undefined && body.page === undefined)
        throw badRequest("A comment on a node names the node's `page` too.");
      if (body.page !== undefined && !(await pageTrees(db, parent.spaceId)(parent.revisionId)).get(body.page))
        throw badRequest(`Page "${body.page}" is not in this content.`);
      const id = ids.next();
      await write(member, (tx) =>
        insertComment(tx, {
          id,
          space_id: parent.spaceId,
          change_request_id: parent.changeRequestId,
          status: "open",
          created_at: now(),
          posted_by: caller.user.id,
          body_markdown: markdownOf(body.body),
          edited_at: null,
          target_page_id: body.page ?? null,
          target_node_id: body.node ?? null,
          target_revision_id: parent.revisionId,
          resolved_at: null,
          resolved_by: null,
        }),
      );
      return created(await presentOne(parent, id));
    },

    async get({ path, caller }: Input<"getCommentInSpace">) {
      const { parent } = await memberOf(path, caller.user.id);
      return ok(await presentOne(parent, path.commentId));
    },

    async update({ path, body, caller }: Input<"updateCommentInSpace">) {
      const member = await memberOf(path, caller.user.id);
      const { parent } = member;
      const comment = await commentOf(db, parent, path.commentId);
      if (authorizeChange(member, caller.user.id, comment.posted_by, body))
        await write(member, async (tx) => {
          const current = await lockComment(tx, parent, comment.id);
          await updateComment(tx, current, {
            ...(body.body !== undefined && { body: { markdown: markdownOf(body.body), at: now() } }),
            resolved: resolution(body.resolved, caller.user.id),
          });
          await react(
            tx,
            { commentId: comment.id, subjectId: comment.id, userId: caller.user.id },
            { added: body.addedReactions ?? [], removed: body.removedReactions ?? [] },
            now(),
          );
        });
      return ok(await presentOne(parent, comment.id));
    },

    async delete({ path, caller }: Input<"deleteCommentInSpace">) {
      const member = await memberOf(path, caller.user.id);
      const comment = await commentOf(db, member.parent, path.commentId);
      authorize(canDeleteText(member.role, caller.user.id, comment.posted_by), DELETE);
      await write(member, async (tx) => deleteComment(tx, await lockComment(tx, member.parent, comment.id)));
      return noContent();
    },

    async listReplies({ path, query, caller }: Input<"listCommentRepliesInSpace">) {
      const { parent } = await memberOf(path, caller.user.id);
      const comment = await commentOf(db, parent, path.commentId);
      const page = await listReplies(db, { commentId: comment.id }, query);
      const view = await repliesView(db, urls, parent, page.rows);
      return ok(presentPage(page, (row) => presentReply(row, view)));
    },

    async postReply({ path, body, caller }: Input<"postCommentReplyInSpace">) {
      const member = await memberOf(path, caller.user.id);
      const comment = await commentOf(db, member.parent, path.commentId);
      authorize(canComment(member.role), COMMENT);
      const id = ids.next();
      await write(member, async (tx) => {
        await lockComment(tx, member.parent, comment.id);
        await insertReply(tx, {
          id,
          comment_id: comment.id,
          posted_by: caller.user.id,
          body_markdown: markdownOf(body.body),
          created_at: now(),
          edited_at: null,
        });
      });
      return created(await presentOneReply(member.parent, comment.id, id));
    },

    async getReply({ path, caller }: Input<"getCommentReplyInSpace">) {
      const { parent } = await memberOf(path, caller.user.id);
      const comment = await commentOf(db, parent, path.commentId);
      return ok(await presentOneReply(parent, comment.id, path.commentReplyId));
    },

    /** A reply in a change request may also resolve or reopen its thread (`resolved`). */
    async updateReply({
      path,
      body,
      caller,
    }: Omit<Input<"updateCommentReplyInSpace">, "body"> & {
      body: Schema<"UpdateCommentReplyRequest"> & { resolved?: boolean };
    }) {
      const member = await memberOf(path, caller.user.id);
      const { parent } = member;
      const comment = await commentOf(db, parent, path.commentId);
      const reply = await replyOf(db, comment.id, path.commentReplyId);
      // Only the change request's contract resolves a thread from a reply; a space's ignores `resolved`.
      const resolved = parent.changeRequestId === null ? undefined : body.resolved;
      if (authorizeChange(member, caller.user.id, reply.posted_by, { ...body, resolved }))
        await write(member, async (tx) => {
          const current = await lockComment(tx, parent, comment.id);
          // Under the thread's lock: 404 if the reply was deleted meanwhile.
          await replyOf(tx, comment.id, reply.id);
          if (body.body !== undefined) await updateReplyBody(tx, reply.id, markdownOf(body.body), now());
          await updateComment(tx, current, { resolved: resolution(resolved, caller.user.id) });
          await react(
            tx,
            { commentId: comment.id, subjectId: reply.id, userId: caller.user.id },
            { added: body.addedReactions ?? [], removed: body.removedReactions ?? [] },
            now(),
          );
        });
      return ok(await presentOneReply(parent, comment.id, reply.id));
    },

    async deleteReply({ path, caller }: Input<"deleteCommentReplyInSpace">) {
      const member = await memberOf(path, caller.user.id);
      const comment = await commentOf(db, member.parent, path.commentId);
      const reply = await replyOf(db, comment.id, path.commentReplyId);
      authorize(canDeleteText(member.role, caller.user.id, reply.posted_by), DELETE);
      await write(member, async (tx) => {
        await lockComment(tx, member.parent, comment.id);
        await deleteReply(tx, reply.id);
      });
      return noContent();
    },
  };
}

export function commentHandlers(
  services: Services,
): AreaHandlers<
  | SpaceOperation
  | "listCommentsInChangeRequest"
  | "postCommentInChangeRequest"
  | "getCommentInChangeRequest"
  | "updateCommentInChangeRequest"
  | "deleteCommentInChangeRequest"
  | "listCommentRepliesInChangeRequest"
  | "postCommentReplyInChangeRequest"
  | "getCommentReplyInChangeRequest"
  | "updateCommentReplyInChangeRequest"
  | "deleteCommentReplyInChangeRequest"
> {
  const ops = commentOperations(services);
  return {
    listCommentsInSpace: ops.list,
    listCommentsInChangeRequest: ops.list,
    postCommentInSpace: ops.post,
    postCommentInChangeRequest: ops.post,
    getCommentInSpace: ops.get,
    getCommentInChangeRequest: ops.get,
    updateCommentInSpace: ops.update,
    updateCommentInChangeRequest: ops.update,
    deleteCommentInSpace: ops.delete,
    deleteCommentInChangeRequest: ops.delete,
    listCommentRepliesInSpace: ops.listReplies,
    listCommentRepliesInChangeRequest: ops.listReplies,
    postCommentReplyInSpace: ops.postReply,
    postCommentReplyInChangeRequest: ops.postReply,
    getCommentReplyInSpace: ops.getReply,
    getCommentReplyInChangeRequest: ops.getReply,
    updateCommentReplyInSpace: ops.updateReply,
    updateCommentReplyInChangeRequest: ops.updateReply,
    deleteCommentReplyInSpace: ops.deleteReply,
    deleteCommentReplyInChangeRequest: ops.deleteReply,
  };
}
