import type { ColumnsOf } from "../db/columns.js";
import type { LinksTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const linksColumns: ColumnsOf<LinksTables> = {
  content_document_links: { space_id: "not null", hash: "not null", position: "not null", url: "not null" },
};
