import type { ColumnsOf } from "../db/columns.js";
import type { ContentTables } from "./tables.js";

/** Every column of the content tables with its nullability, checked by src/db/schema.test.ts. */
export const contentColumns: ColumnsOf<ContentTables> = {
  content_documents: { space_id: "not null", hash: "not null", markdown: "not null", meta: "null" },
  content_nodes: { space_id: "not null", hash: "not null", body: "not null" },
  content_document_links: { space_id: "not null", hash: "not null", position: "not null", url: "not null" },
  revisions: {
    id: "not null",
    space_id: "not null",
    parent_id: "null",
    merge_parent_id: "null",
    type: "not null",
    root: "null",
    author_id: "null",
    created_at: "not null",
  },
};
