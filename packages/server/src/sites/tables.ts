import type { Schema } from "@quire/api-types";
import type { Flag, JsonText } from "../db/codecs.js";
import type { AdaptiveJsonSchema } from "./adaptive-schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 *
 * The top level of a site is one ordering (`position`) shared by its ungrouped sections and its
 * section groups; the sections of a group have their own ordering inside it.
 */
export interface SitesTables {
  sites: SiteTable;
  site_share_links: SiteShareLinkTable;
  site_sections: SiteSectionTable;
  site_section_groups: SiteSectionGroupTable;
  site_spaces: SiteSpaceTable;
}

export interface SiteTable {
  id: string;
  organization_id: string;
  type: Schema<"SiteType">;
  title: string;
  /** Unique among the sites of the organization. */
  basename: string | null;
  /** Unique among all sites: one origin serves one site. */
  proxy_origin: string | null;
  visibility: Schema<"SiteVisibility">;
  published: Flag;
  adaptive_content: Flag;
  /** The visitor attributes schema; null until one is set. */
  adaptive_schema: JsonText<AdaptiveJsonSchema> | null;
  adaptive_schema_updated_at: string | null;
  auth_backend: Schema<"VisitorAuthBackend">;
  /** The key signing visitor tokens, encrypted at rest (see `visitor-auth.ts`). */
  auth_key: JsonText<Record<string, string>>;
  auth_fallback_url: string | null;
  auth_logout_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteShareLinkTable {
  id: string;
  site_id: string;
  name: string;
  /** The secret a visitor presents; unique among all share links. */
  share_key: string;
  active: Flag;
  created_at: string;
  updated_at: string;
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
  is_default: Flag;
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
  is_default: Flag;
  position: number;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends SitesTables {}
}
