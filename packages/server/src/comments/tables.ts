import type { ColumnType, Selectable } from "kysely";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface CommentsTables {
  comments: CommentTable & CommentThreadColumns;
  comment_replies: CommentReplyTable;
  comment_reactions: CommentReactionTable;
}

export type CommentStatus = "open" | "resolved";

/**
 * What every area may read of a comment: where it is and whether it is open (the counters of spaces
 * and change requests count these).
 */
export interface CommentTable {
  id: string;
  space_id: string;
  change_request_id: string | null;
  status: CommentStatus;
  /** When it was posted. */
  created_at: string;
}

/** A column the database fills when an insert leaves it out. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/**
 * The rest of a comment, this area's own. Optional on insert as the database fills them (empty
 * text, null), so that code writing bare `CommentTable` rows (counter tests) needs no change.
 */
export interface CommentThreadColumns {
  posted_by: Defaulted<string>;
  body_markdown: Defaulted<string>;
  edited_at: Defaulted<string | null>;
  target_page_id: Defaulted<string | null>;
  target_node_id: Defaulted<string | null>;
  /** The parent's revision when the comment was posted: where its page is found once gone. */
  target_revision_id: Defaulted<string>;
  resolved_at: Defaulted<string | null>;
  resolved_by: Defaulted<string | null>;
}

/** A comment as read. */
export type CommentRecord = Selectable<CommentTable & CommentThreadColumns>;

export interface CommentReplyTable {
  id: string;
  comment_id: string;
  posted_by: string;
  body_markdown: string;
  created_at: string;
  edited_at: string | null;
}

/** One user's emoji on a comment or a reply (`subject_id`), kept with the thread it belongs to. */
export interface CommentReactionTable {
  comment_id: string;
  subject_id: string;
  user_id: string;
  emoji: string;
  reacted_at: string;
}

declare module "../db/schema.js" {
  interface Database extends CommentsTables {}
}
