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
  site_redirects: SiteRedirectTable;
  site_customizations: SiteCustomizationTable;
  site_space_customizations: SiteSpaceCustomizationTable;
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
  /** 1 while the section is a draft: left out of the published site. */
  draft: Flag;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  /** 1 while the group is a draft: its sections are left out of the published site. */
  draft: Flag;
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
  /** 1 while the site space is a draft: left out of the published site. */
  draft: Flag;
  /** The site space's own title in the site; the space's title when null. */
  title: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

/** The customization of a site, once set (GitBook's defaults until then); `updatedAt` is `updated_at`. */
export interface SiteCustomizationTable {
  site_id: string;
  settings: JsonText<Schema<"SiteCustomizationSettings">>;
  created_at: string;
  updated_at: string;
}

/** What a site space overrides of its site's customization: the fields set, never null. */
export interface SiteSpaceCustomizationTable {
  site_space_id: string;
  site_id: string;
  override: JsonText<Schema<"SiteSpaceCustomizationOverride">>;
  created_at: string;
  updated_at: string;
}

/**
 * A redirect of a site, live or draft. `source` is in the one percent-encoded form of
 * `canonicalSource` (redirects/resolve.ts), so that a visitor's path is looked up by equality.
 */
export interface SiteRedirectTable {
  id: string;
  site_id: string;
  /** Unique among the site's redirects of the same `draft`. */
  source: string;
  draft: Flag;
  capture_wildcard: Flag;
  permanent: Flag;
  destination: JsonText<Schema<"SiteRedirectDestination">>;
  created_at: string;
  /** Null until the redirect is changed. */
  updated_at: string | null;
}

declare module "../db/schema.js" {
  interface Database extends SitesTables {}
}
