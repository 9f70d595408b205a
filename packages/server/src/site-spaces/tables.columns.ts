import type { ColumnsOf } from "../db/columns.js";
import type { SiteSpacesTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const siteSpacesColumns: ColumnsOf<SiteSpacesTables> = {
  site_spaces: {
    id: "not null",
    site_id: "not null",
    section_id: "null",
    space_id: "not null",
    path: "not null",
    condition: "null",
    is_default: "not null",
    position: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
};
