/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 *
 * The top level of a site is one ordering (`position`) shared by its ungrouped sections and its
 * section groups; the sections of a group have their own ordering inside it.
 */
export interface SiteSectionsTables {
  site_sections: SiteSectionTable;
  site_section_groups: SiteSectionGroupTable;
}

export interface SiteSectionTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  /** Unique among the sections of the site. */
  path: string;
  condition: string | null;
  icon: string | null;
  /** 1 for exactly one section of a site that has sections. */
  is_default: number;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends SiteSectionsTables {}
}
