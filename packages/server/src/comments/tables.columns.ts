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
  },
};
