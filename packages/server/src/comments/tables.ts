/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface CommentsTables {
  comments: CommentTable;
}

export interface CommentTable {
  id: string;
  space_id: string;
  change_request_id: string | null;
  status: "open" | "resolved";
  created_at: string;
}
