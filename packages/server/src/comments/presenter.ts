import type { Schema } from "@quire/api-types";
import type { Role, UserTable } from "../db/schema.js";
import type { Urls } from "../urls.js";
import { presentUserIn } from "../users/index.js";
import { canComment, canDeleteText, canEditText } from "./policy.js";
import type { CommentRow, ReplierRow } from "./store.js";
import type { CommentReactionTable, CommentReplyTable } from "./tables.js";

/** Who looks at comments: the caller, with their role on the space. */
export interface CommentViewer {
  userId: string;
  role: Role;
}

/** What presenting comments or replies of one parent needs besides their rows (see `views.ts`). */
export interface CommentView {
  urls: Urls;
  /** The parent's path in the API: `spaces/{id}` or `spaces/{id}/change-requests/{id}`. */
  parentPath: string;
  viewer: CommentViewer;
  users: ReadonlyMap<string, UserTable>;
  /** Who replied to each comment, by comment id, in the order of their first reply. */
  repliers: ReadonlyMap<string, readonly ReplierRow[]>;
  /** Reactions by comment or reply id, in the order they were made. */
  reactions: ReadonlyMap<string, readonly CommentReactionTable[]>;
  /** Target pages by comment id. */
  pages: ReadonlyMap<string, Schema<"CommentTargetPage">>;
}

function userOf(view: CommentView, id: string): Schema<"User"> {
  return presentUserIn(view.users, id, view.urls);
}

/** Each emoji once, in the order of its first reaction, with its users in the order they reacted. */
function presentReactions(view: CommentView, subjectId: string): Schema<"Reaction">[] {
  const byEmoji = new Map<string, Schema<"ReactionUser">[]>();
  for (const reaction of view.reactions.get(subjectId) ?? []) {
    const users = byEmoji.get(reaction.emoji) ?? [];
    users.push({ user: userOf(view, reaction.user_id), reactedAt: reaction.reacted_at });
    byEmoji.set(reaction.emoji, users);
  }
  return [...byEmoji].map(([emoji, users]) => ({ emoji, count: users.length, users }));
}

/** What the viewer may do with a comment or reply `authorId` wrote. */
function permissionsOf({ userId, role }: CommentViewer, authorId: string): Schema<"CommentPermissions"> {
  return {
    view: true,
    edit: canEditText(role, userId, authorId),
    reply: canComment(role),
    delete: canDeleteText(role, userId, authorId),
  };
}

export function presentComment(row: CommentRow, view: CommentView): Schema<"Comment"> {
  const page = view.pages.get(row.id);
  return {
    object: "comment",
    id: row.id,
    postedBy: userOf(view, row.posted_by),
    postedAt: row.created_at,
    ...(row.edited_at !== null && { editedAt: row.edited_at }),
    reactions: presentReactions(view, row.id),
    replies: Number(row.reply_count),
    repliers: (view.repliers.get(row.id) ?? []).map((replier) => ({
      user: userOf(view, replier.posted_by),
      count: Number(replier.replies),
      updatedAt: replier.last_replied_at,
    })),
    permissions: permissionsOf(view.viewer, row.posted_by),
    body: { markdown: row.body_markdown },
    target: {
      space: row.space_id,
      revision: row.target_revision_id,
      ...(row.change_request_id !== null && { changeRequest: row.change_request_id }),
      ...(page && { page }),
      ...(row.target_node_id !== null && { node: { id: row.target_node_id } }),
    },
    urls: { location: view.urls.api(`${view.parentPath}/comments/${row.id}`) },
    status: row.status,
    // Reopening clears both: they are set only on resolved comments.
    ...(row.resolved_at !== null && { resolvedAt: row.resolved_at }),
    ...(row.resolved_by !== null && { resolvedBy: userOf(view, row.resolved_by) }),
  };
}

export function presentReply(row: CommentReplyTable, view: CommentView): Schema<"CommentReply"> {
  return {
    object: "comment-reply",
    id: row.id,
    postedBy: userOf(view, row.posted_by),
    postedAt: row.created_at,
    ...(row.edited_at !== null && { editedAt: row.edited_at }),
    reactions: presentReactions(view, row.id),
    body: { markdown: row.body_markdown },
    urls: { location: view.urls.api(`${view.parentPath}/comments/${row.comment_id}/replies/${row.id}`) },
    permissions: permissionsOf(view.viewer, row.posted_by),
  };
}
