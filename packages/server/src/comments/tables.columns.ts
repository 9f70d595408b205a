import type { ColumnsOf } from "../db/columns.js";
import type { CommentsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const commentsColumns: ColumnsOf<CommentsTables> = {
  comments: {
    id: "not null",
    space_id: "not null",
    change_request_id: "null",
    status: "not null",
    created_at: "not null",
    posted_by: "not null",
    body_markdown: "not null",
    edited_at: "null",
    target_page_id: "null",
    target_node_id: "null",
    target_revision_id: "not null",
    resolved_at: "null",
    resolved_by: "null",
  },
  comment_replies: {
    id: "not null",
    comment_id: "not null",
    posted_by: "not null",
    body_markdown: "not null",
    created_at: "not null",
    edited_at: "null",
  },
  comment_reactions: {
    comment_id: "not null",
    subject_id: "not null",
    user_id: "not null",
    emoji: "not null",
    reacted_at: "not null",
  },
};
