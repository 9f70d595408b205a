/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface SiteSpacesTables {
  site_spaces: SiteSpaceTable;
}

/**
 * A space linked into a site, in a container: the site's root (`section_id` null, for sites
 * without sections) or one section. Ordered by `position` inside the container.
 */
export interface SiteSpaceTable {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  /** Unique inside the container. */
  path: string;
  condition: string | null;
  /** 1 for exactly one site space of each container that has any. */
  is_default: number;
  position: number;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends SiteSpacesTables {}
}
