import { type SqlBool, SqliteAdapter, sql } from "kysely";
import type { Db } from "../db/database.js";
import { notFound } from "../http/errors.js";
import { keysetList, type PageQuery } from "../http/paging.js";
import { members } from "../members/index.js";
import { adjustSpaceActivity } from "../spaces/index.js";
import type { CommentReactionTable, CommentRecord, CommentReplyTable, CommentStatus } from "./tables.js";

/** Where comments live: a space's main content (`changeRequestId` null) or one of its change requests. */
export interface CommentParent {
  spaceId: string;
  changeRequestId: string | null;
}

/** A comment with its number of replies. */
export type CommentRow = CommentRecord & { reply_count: number | string };

function selectComments(db: Db) {
  return db
    .selectFrom("comments")
    .selectAll("comments")
    .select((eb) =>
      eb
        .selectFrom("comment_replies")
        .select(eb.fn.countAll<number | string>().as("n"))
        .whereRef("comment_replies.comment_id", "=", "comments.id")
        .as("reply_count"),
    )
    .$narrowType<{ reply_count: number | string }>();
}

interface ListArgs {
  [name: string]: string | null;
  spaceId: string;
  /** Unused for the main content's list: the list is built per kind of parent (see `commentLists`). */
  changeRequestId: string;
  status: "all" | CommentStatus;
  targetPage: string | null;
  /** The authors listed, as `authorList` writes them; null for all. */
  authors: string | null;
}

/** The comments of one kind of parent, filtered by status and page; arguments are placeholders here. */
const commentsOf = (onChangeRequest: boolean) => (db: Db, args: ListArgs) =>
  selectComments(db)
    .where("space_id", "=", args.spaceId)
    .where((eb) =>
      onChangeRequest
        ? eb("change_request_id", "=", args.changeRequestId)
        : eb("change_request_id", "is", null),
    )
    .where((eb) =>
      eb.or([
        // Typed, for PostgreSQL cannot tell the type of a bare parameter compared with a constant or null.
        sql<boolean>`cast(${args.status} as text) = 'all'`,
        eb("status", "=", args.status as CommentStatus),
      ]),
    )
    .where((eb) =>
      eb.or([
        sql<boolean>`cast(${args.targetPage} as text) is null`,
        eb("target_page_id", "=", args.targetPage as string),
      ]),
    )
    .where((eb) =>
      eb.or([
        sql<boolean>`cast(${args.authors} as text) is null`,
        // `replace`, case-sensitive on both databases (SQLite's `like` is not), finds `,id,` in the list.
        sql<boolean>`replace(cast(${args.authors} as text), ',' || ${eb.ref("posted_by")} || ',', '') <> cast(${args.authors} as text)`,
      ]),
    );

/**
 * The authors of a filter as one argument of a prepared list (which takes no lists): the ids between
 * commas. User ids hold no comma, so an id that does matches no one and is left out.
 */
function authorList(authors: readonly string[] | undefined): string | null {
  if (authors === undefined) return null;
  return `,${authors.filter((id) => !id.includes(",")).join(",")},`;
}

const POSTING_ORDER = { created_at: "string", id: "string" } as const;

const commentLists = {
  space: {
    asc: keysetList(commentsOf(false), POSTING_ORDER),
    desc: keysetList(commentsOf(false), POSTING_ORDER, { descending: true }),
  },
  changeRequest: {
    asc: keysetList(commentsOf(true), POSTING_ORDER),
    desc: keysetList(commentsOf(true), POSTING_ORDER, { descending: true }),
  },
};

/** A page of the parent's comments in posting order (`desc`: newest first). */
export function listComments(
  db: Db,
  parent: CommentParent,
  filters: {
    status: ListArgs["status"];
    targetPage: string | null;
    order: "asc" | "desc";
    authors?: readonly string[];
  },
  query: PageQuery,
) {
  const lists = parent.changeRequestId === null ? commentLists.space : commentLists.changeRequest;
  return lists[filters.order](
    db,
    {
      spaceId: parent.spaceId,
      changeRequestId: parent.changeRequestId ?? "",
      status: filters.status,
      targetPage: filters.targetPage,
      authors: authorList(filters.authors),
    },
    query,
  );
}

function inParent(db: Db, parent: CommentParent) {
  return selectComments(db)
    .where("space_id", "=", parent.spaceId)
    .where((eb) =>
      parent.changeRequestId === null
        ? eb("change_request_id", "is", null)
        : eb("change_request_id", "=", parent.changeRequestId),
    );
}

/** The parent's comment; 404 when it belongs to another space or change request, or to none. */
export async function commentOf(db: Db, parent: CommentParent, commentId: string): Promise<CommentRow> {
  const row = await inParent(db, parent).where("comments.id", "=", commentId).executeTakeFirst();
  if (!row) throw notFound("Comment");
  return row;
}

/** The parent's comments of these ids that still exist. */
export function commentsByIds(db: Db, parent: CommentParent, ids: readonly string[]): Promise<CommentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return inParent(db, parent).where("comments.id", "in", ids).execute();
}

/**
 * The comment, locked until the transaction ends: every write to a thread takes it first, so that
 * two resolutions at once move the counter once. PostgreSQL locks the row; SQLite runs one write
 * transaction at a time anyway.
 */
export async function lockComment(tx: Db, parent: CommentParent, commentId: string): Promise<CommentRow> {
  // A row lock cannot go with the count of replies: the comment is locked first, then read.
  let lock = tx.selectFrom("comments").select("id").where("id", "=", commentId);
  if (!(tx.getExecutor().adapter instanceof SqliteAdapter)) lock = lock.forUpdate();
  await lock.execute();
  return commentOf(tx, parent, commentId);
}

/**
 * `Space.comments` counts the open comments of the main content only; a change request counts its
 * own when read (src/change-requests/store.ts).
 */
async function moveOpenComments(tx: Db, comment: CommentRecord, delta: number): Promise<void> {
  if (comment.change_request_id === null)
    await adjustSpaceActivity(tx, comment.space_id, { open_comments: delta });
}

/** Stores a new open comment and counts it. Inside a transaction. */
export async function insertComment(tx: Db, comment: CommentRecord): Promise<void> {
  await tx.insertInto("comments").values(comment).execute();
  if (comment.status === "open") await moveOpenComments(tx, comment, 1);
}

/**
 * Changes a comment's text or status (`resolved`: who and when, or null to reopen); the counters
 * move when the status does. After `lockComment`.
 */
export async function updateComment(
  tx: Db,
  current: CommentRecord,
  changes: { body?: { markdown: string; at: string }; resolved?: { at: string; by: string } | null },
): Promise<void> {
  const status: CommentStatus | undefined =
    changes.resolved === undefined ? undefined : changes.resolved ? "resolved" : "open";
  const statusChanges = status !== undefined && status !== current.status;
  if (!changes.body && !statusChanges) return;
  await tx
    .updateTable("comments")
    .set({
      ...(changes.body && { body_markdown: changes.body.markdown, edited_at: changes.body.at }),
      ...(statusChanges && {
        status,
        resolved_at: changes.resolved?.at ?? null,
        resolved_by: changes.resolved?.by ?? null,
      }),
    })
    .where("id", "=", current.id)
    .execute();
  if (statusChanges) await moveOpenComments(tx, current, status === "open" ? 1 : -1);
}

/** Deletes a comment with its replies and reactions (by cascade) and uncounts it. After `lockComment`. */
export async function deleteComment(tx: Db, comment: CommentRecord): Promise<void> {
  await tx.deleteFrom("comments").where("id", "=", comment.id).execute();
  if (comment.status === "open") await moveOpenComments(tx, comment, -1);
}

/** The replies to a comment, oldest first: threads read top-down. */
export const listReplies = keysetList(
  (db, args: { commentId: string }) =>
    db.selectFrom("comment_replies").selectAll().where("comment_id", "=", args.commentId),
  POSTING_ORDER,
);

/** A reply to the comment; 404 when it answers another comment or none. */
export async function replyOf(db: Db, commentId: string, replyId: string): Promise<CommentReplyTable> {
  const row = await db
    .selectFrom("comment_replies")
    .selectAll()
    .where("id", "=", replyId)
    .where("comment_id", "=", commentId)
    .executeTakeFirst();
  if (!row) throw notFound("Comment reply");
  return row;
}

export async function insertReply(tx: Db, reply: CommentReplyTable): Promise<void> {
  await tx.insertInto("comment_replies").values(reply).execute();
}

export async function updateReplyBody(tx: Db, replyId: string, markdown: string, at: string): Promise<void> {
  await tx
    .updateTable("comment_replies")
    .set({ body_markdown: markdown, edited_at: at })
    .where("id", "=", replyId)
    .execute();
}

/** Deletes a reply and its reactions. After `lockComment`. */
export async function deleteReply(tx: Db, replyId: string): Promise<void> {
  await tx.deleteFrom("comment_reactions").where("subject_id", "=", replyId).execute();
  await tx.deleteFrom("comment_replies").where("id", "=", replyId).execute();
}

/**
 * The caller's reactions to a comment or reply (`subjectId`) in thread `commentId`: each emoji of
 * `added` is added unless already there, each of `removed` withdrawn; one in both ends withdrawn.
 */
export async function react(
  tx: Db,
  target: { commentId: string; subjectId: string; userId: string },
  changes: { added: readonly string[]; removed: readonly string[] },
  now: string,
): Promise<void> {
  const removed = [...new Set(changes.removed)];
  const added = [...new Set(changes.added)].filter((emoji) => !removed.includes(emoji));
  if (removed.length > 0)
    await tx
      .deleteFrom("comment_reactions")
      .where("subject_id", "=", target.subjectId)
      .where("user_id", "=", target.userId)
      .where("emoji", "in", removed)
      .execute();
  if (added.length > 0)
    await tx
      .insertInto("comment_reactions")
      .values(
        added.map((emoji) => ({
          comment_id: target.commentId,
          subject_id: target.subjectId,
          user_id: target.userId,
          emoji,
          reacted_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(["subject_id", "user_id", "emoji"]).doNothing())
      .execute();
}

/** One user who replied to a comment: how many replies, when first and last. */
export interface ReplierRow {
  comment_id: string;
  posted_by: string;
  replies: number | string;
  first_replied_at: string;
  last_replied_at: string;
}

/** Who replied to these comments, each comment's repliers in the order of their first reply. */
export async function repliersOf(db: Db, commentIds: readonly string[]): Promise<ReplierRow[]> {
  if (commentIds.length === 0) return [];
  return db
    .selectFrom("comment_replies")
    .select((eb) => [
      "comment_id",
      "posted_by",
      eb.fn.countAll<number | string>().as("replies"),
      eb.fn.min("created_at").as("first_replied_at"),
      eb.fn.max("created_at").as("last_replied_at"),
    ])
    .where("comment_id", "in", commentIds)
    .groupBy(["comment_id", "posted_by"])
    .orderBy("first_replied_at")
    .orderBy("posted_by")
    .execute();
}

/** The reactions to these comments or replies, in the order they were made. */
export async function reactionsOf(db: Db, subjectIds: readonly string[]): Promise<CommentReactionTable[]> {
  if (subjectIds.length === 0) return [];
  return db
    .selectFrom("comment_reactions")
    .selectAll()
    .where("subject_id", "in", subjectIds)
    .orderBy("reacted_at")
    .orderBy("emoji")
    .orderBy("user_id")
    .execute();
}

/**
 * SQL: who posted the comments and replies of one kind of parent (`posted_by`, with `created_at`);
 * arguments may be placeholders.
 */
const postsOf =
  (onChangeRequest: boolean) => (db: Db, args: { spaceId: string; changeRequestId: string }) => {
    const inParent = <T extends "comments" | "c">(table: T) =>
      sql<SqlBool>`${sql.ref(`${table}.space_id`)} = ${args.spaceId} and ${
        onChangeRequest
          ? sql`${sql.ref(`${table}.change_request_id`)} = ${args.changeRequestId}`
          : sql`${sql.ref(`${table}.change_request_id`)} is null`
      }`;
    return db
      .selectFrom("comments")
      .select(["comments.posted_by", "comments.created_at"])
      .where(inParent("comments"))
      .unionAll(
        db
          .selectFrom("comment_replies as r")
          .innerJoin("comments as c", "c.id", "r.comment_id")
          .select(["r.posted_by", "r.created_at"])
          .where(inParent("c")),
      );
  };

/** Who commented or replied on the parent, with how many times and when last. */
export async function commentersOf(
  db: Db,
  parent: CommentParent,
): Promise<{ posted_by: string; posts: number | string; last_posted_at: string }[]> {
  const args = { spaceId: parent.spaceId, changeRequestId: parent.changeRequestId ?? "" };
  return db
    .selectFrom(postsOf(parent.changeRequestId !== null)(db, args).as("p"))
    .select((eb) => [
      "p.posted_by",
      eb.fn.countAll<number | string>().as("posts"),
      eb.fn.max("p.created_at").as("last_posted_at"),
    ])
    .groupBy("p.posted_by")
    .execute();
}

/** A page of the members of the organization who commented or replied on one kind of parent, by user id. */
const commentingMembers = (onChangeRequest: boolean) =>
  keysetList(
    (db, args: { organizationId: string; spaceId: string; changeRequestId: string }) =>
      members(db)
        .where("m.organization_id", "=", args.organizationId)
        .where(
          "m.user_id",
          "in",
          db.selectFrom(postsOf(onChangeRequest)(db, args).as("p")).select("p.posted_by"),
        ),
    { user_id: "string" },
  );

const commenterLists = { space: commentingMembers(false), changeRequest: commentingMembers(true) };

/** A page of the organization's members who commented or replied on the parent, by user id. */
export function listCommenters(db: Db, organizationId: string, parent: CommentParent, query: PageQuery) {
  const list = parent.changeRequestId === null ? commenterLists.space : commenterLists.changeRequest;
  return list(
    db,
    { organizationId, spaceId: parent.spaceId, changeRequestId: parent.changeRequestId ?? "" },
    query,
  );
}
