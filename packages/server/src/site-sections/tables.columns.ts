import type { ColumnsOf } from "../db/columns.js";
import type { SiteSectionsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const siteSectionsColumns: ColumnsOf<SiteSectionsTables> = {
  site_sections: {
    id: "not null",
    site_id: "not null",
    group_id: "null",
    title: "not null",
    description: "null",
    path: "not null",
    condition: "null",
    icon: "null",
    is_default: "not null",
    position: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  site_section_groups: {
    id: "not null",
    site_id: "not null",
    title: "not null",
    icon: "null",
    position: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
};
