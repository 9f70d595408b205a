import type { ColumnsOf } from "../db/columns.js";
import type { SearchTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const searchColumns: ColumnsOf<SearchTables> = {
  search_sections: {
    space_id: "not null",
    page_id: "not null",
    position: "not null",
    page_title: "not null",
    page_path: "not null",
    page_description: "not null",
    page_ancestors: "not null",
    anchor: "not null",
    heading: "not null",
    body: "not null",
  },
  search_spaces: { space_id: "not null", revision_id: "not null" },
};
