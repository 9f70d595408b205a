import type { HandlerInput, Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../area.js";
import type { Caller } from "../auth/caller.js";
import type { Transaction } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { badRequest } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { presentMember } from "../members/index.js";
import { authorize } from "../policy.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";
import { commentRules, type MemberComment, type MemberParent } from "./access.js";
import { canComment, canDeleteText, canEditText } from "./policy.js";
import { markdownOf, postComment, recordCommentEvent } from "./post.js";
import { presentComment, presentReply } from "./presenter.js";
import {
  commentOf,
  deleteComment,
  deleteReply,
  insertReply,
  listCommenters,
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
  | "listCommentersInSpace"
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

const COMMENT = "comment in this space";
const EDIT = "change the text of a comment or reply you did not write";
const DELETE = "delete a comment or reply you did not write";

/** The access rules of the comment operations under one kind of parent. */
function accessUnder(kind: "space" | "change request") {
  const on = commentRules(kind);
  const comments = ({ role }: { role: Role }) => canComment(role);
  return {
    list: on.parent("read its comments"),
    post: on.parent(COMMENT, comments),
    get: on.comment("read this comment"),
    // The handler checks each part of the change: only the author changes the text, and who may comment
    // resolves, reopens and reacts; a change asking for nothing is allowed to any reader.
    update: on.comment("change this comment"),
    // The handler checks that the caller wrote the comment or is an admin of the space.
    delete: on.comment("delete this comment"),
    listReplies: on.comment("read this comment"),
    postReply: on.comment(COMMENT, comments),
    getReply: on.comment("read this comment"),
    // As for a comment, the handler checks each part of the change against the reply's author.
    updateReply: on.comment("change a reply of this comment"),
    // The handler checks that the caller wrote the reply or is an admin of the space.
    deleteReply: on.comment("delete a reply of this comment"),
  };
}

const inSpace = accessUnder("space");
const inChangeRequest = accessUnder("change request");

export const commentAccess = {
  listCommentersInSpace: inSpace.list,
  listCommentersInChangeRequest: inChangeRequest.list,
  listCommentsInSpace: inSpace.list,
  listCommentsInChangeRequest: inChangeRequest.list,
  postCommentInSpace: inSpace.post,
  postCommentInChangeRequest: inChangeRequest.post,
  getCommentInSpace: inSpace.get,
  getCommentInChangeRequest: inChangeRequest.get,
  updateCommentInSpace: inSpace.update,
  updateCommentInChangeRequest: inChangeRequest.update,
  deleteCommentInSpace: inSpace.delete,
  deleteCommentInChangeRequest: inChangeRequest.delete,
  listCommentRepliesInSpace: inSpace.listReplies,
  listCommentRepliesInChangeRequest: inChangeRequest.listReplies,
  postCommentReplyInSpace: inSpace.postReply,
  postCommentReplyInChangeRequest: inChangeRequest.postReply,
  getCommentReplyInSpace: inSpace.getReply,
  getCommentReplyInChangeRequest: inChangeRequest.getReply,
  updateCommentReplyInSpace: inSpace.updateReply,
  updateCommentReplyInChangeRequest: inChangeRequest.updateReply,
  deleteCommentReplyInSpace: inSpace.deleteReply,
  deleteCommentReplyInChangeRequest: inChangeRequest.deleteReply,
} satisfies AccessMap;

/** The parts of a change to a comment or reply, each allowed to a different caller. */
interface ChangeParts {
  body?: unknown;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

/**
 * The comment operations, written once: a space's main content and a change request each hold
 * threads, and every operation takes either parent's path.
 */
function commentOperations(services: Services) {
  const { db, urls, ids, now, transaction } = services;

  /** A write, once the space may change (409 while it is deleted), in one transaction. */
  const write = <T>(member: MemberParent, work: (tx: Transaction) => Promise<T>) => {
    assertSpaceNotDeleted(member.space);
    return transaction(work);
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
  const authorizeChange = (role: Role, callerId: string, authorId: string, change: ChangeParts) => {
    const reacts = (change.addedReactions?.length ?? 0) + (change.removedReactions?.length ?? 0) > 0;
    if (change.body !== undefined) authorize(canEditText(role, callerId, authorId), EDIT);
    if (change.resolved !== undefined || reacts) authorize(canComment(role), COMMENT);
    return change.body !== undefined || change.resolved !== undefined || reacts;
  };

  return {
    async listCommenters({ query }: Input<"listCommentersInSpace">, { space, parent }: MemberParent) {
      const page = await listCommenters(db, space.organization_id, parent, query);
      return ok(presentPage(page, (row) => presentMember(row, urls)));
    },

    async list({ query }: Input<"listCommentsInSpace">, { parent }: MemberParent) {
      const page = await listComments(
        db,
        parent,
        {
          status: query.status ?? "all",
          targetPage: query.targetPage ?? null,
          order: query.order ?? "desc",
          ...(query.authors !== undefined && { authors: query.authors }),
        },
        query,
      );
      const view = await commentsView(db, urls, parent, page.rows);
      return ok(presentPage(page, (row) => presentComment(row, view)));
    },

    async post({ body, caller }: Input<"postCommentInSpace">, member: MemberParent) {
      const { parent } = member;
      if (body.tableCell !== undefined)
        throw badRequest(
          "`tableCell` targets a cell of a GitBook database; Quire has none, so a comment cannot target one.",
        );
      if (body.node !== undefined && body.page === undefined)
        throw badRequest("A comment on a node names the node's `page` too.");
      if (body.page !== undefined && !(await pageTrees(db, parent.spaceId)(parent.revisionId)).get(body.page))
        throw badRequest(`Page "${body.page}" is not in this content.`);
      const markdown = await markdownOf(body.body);
      const id = ids.next();
      await write(member, (tx) =>
        postComment(tx, services, member, {
          id,
          userId: caller.user.id,
          markdown,
          ...(body.page !== undefined && { page: body.page }),
          ...(body.node !== undefined && { node: body.node }),
        }),
      );
      return created(await presentOne(parent, id));
    },

    async get(_input: Input<"getCommentInSpace">, { parent, comment }: MemberComment) {
      return ok(presentComment(comment, await commentsView(db, urls, parent, [comment])));
    },

    async update({ body, caller }: Input<"updateCommentInSpace">, member: MemberComment) {
      const { parent, comment } = member;
      if (authorizeChange(member.role, caller.user.id, comment.posted_by, body)) {
        const markdown = body.body && (await markdownOf(body.body));
        await write(member, async (tx) => {
          const current = await lockComment(tx, parent, comment.id);
          await updateComment(tx, current, {
            ...(markdown !== undefined && { body: { markdown, at: now() } }),
            resolved: resolution(body.resolved, caller.user.id),
          });
          await react(
            tx,
            { commentId: comment.id, subjectId: comment.id, userId: caller.user.id },
            { added: body.addedReactions ?? [], removed: body.removedReactions ?? [] },
            now(),
          );
        });
      }
      return ok(await presentOne(parent, comment.id));
    },

    async delete({ caller }: Input<"deleteCommentInSpace">, member: MemberComment) {
      const { parent, comment } = member;
      authorize(canDeleteText(member.role, caller.user.id, comment.posted_by), DELETE);
      await write(member, async (tx) => deleteComment(tx, await lockComment(tx, parent, comment.id)));
      return noContent();
    },

    async listReplies({ query }: Input<"listCommentRepliesInSpace">, { parent, comment }: MemberComment) {
      const page = await listReplies(db, { commentId: comment.id }, query);
      const view = await repliesView(db, urls, parent, page.rows);
      return ok(presentPage(page, (row) => presentReply(row, view)));
    },

    async postReply({ body, caller }: Input<"postCommentReplyInSpace">, member: MemberComment) {
      const { parent, comment } = member;
      const markdown = await markdownOf(body.body);
      const id = ids.next();
      await write(member, async (tx) => {
        await lockComment(tx, parent, comment.id);
        await insertReply(tx, {
          id,
          comment_id: comment.id,
          posted_by: caller.user.id,
          body_markdown: markdown,
          created_at: now(),
          edited_at: null,
        });
        await recordCommentEvent(tx, services, member, caller.user.id, "comment_reply_created", {
          comment: comment.id,
          reply: id,
          ...(comment.target_page_id !== null && { page: comment.target_page_id }),
        });
      });
      return created(await presentOneReply(parent, comment.id, id));
    },

    async getReply({ path }: Input<"getCommentReplyInSpace">, { parent, comment }: MemberComment) {
      return ok(await presentOneReply(parent, comment.id, path.commentReplyId));
    },

    /** A reply in a change request may also resolve or reopen its thread (`resolved`). */
    async updateReply(
      {
        path,
        body,
        caller,
      }: Omit<Input<"updateCommentReplyInSpace">, "body"> & {
        body: Schema<"UpdateCommentReplyRequest"> & { resolved?: boolean };
      },
      member: MemberComment,
    ) {
      const { parent, comment } = member;
      const reply = await replyOf(db, comment.id, path.commentReplyId);
      // Only the change request's contract resolves a thread from a reply; a space's ignores `resolved`.
      const resolved = parent.changeRequestId === null ? undefined : body.resolved;
      if (authorizeChange(member.role, caller.user.id, reply.posted_by, { ...body, resolved })) {
        const markdown = body.body && (await markdownOf(body.body));
        await write(member, async (tx) => {
          const current = await lockComment(tx, parent, comment.id);
          // Under the thread's lock: 404 if the reply was deleted meanwhile.
          await replyOf(tx, comment.id, reply.id);
          if (markdown !== undefined) await updateReplyBody(tx, reply.id, markdown, now());
          await updateComment(tx, current, { resolved: resolution(resolved, caller.user.id) });
          await react(
            tx,
            { commentId: comment.id, subjectId: reply.id, userId: caller.user.id },
            { added: body.addedReactions ?? [], removed: body.removedReactions ?? [] },
            now(),
          );
        });
      }
      return ok(await presentOneReply(parent, comment.id, reply.id));
    },

    async deleteReply({ path, caller }: Input<"deleteCommentReplyInSpace">, member: MemberComment) {
      const { parent, comment } = member;
      const reply = await replyOf(db, comment.id, path.commentReplyId);
      authorize(canDeleteText(member.role, caller.user.id, reply.posted_by), DELETE);
      await write(member, async (tx) => {
        await lockComment(tx, parent, comment.id);
        await deleteReply(tx, reply.id);
      });
      return noContent();
    },
  };
}

export function commentHandlers(services: Services): AreaHandlers<typeof commentAccess> {
  const ops = commentOperations(services);
  return {
    listCommentersInSpace: ops.listCommenters,
    listCommentersInChangeRequest: ops.listCommenters,
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
