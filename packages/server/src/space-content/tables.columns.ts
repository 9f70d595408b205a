import type { ColumnsOf } from "../db/columns.js";
import type { SpaceContentTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const spaceContentColumns: ColumnsOf<SpaceContentTables> = {
  content_documents: { space_id: "not null", hash: "not null", markdown: "not null" },
  content_nodes: { space_id: "not null", hash: "not null", body: "not null" },
};
