import type { Schema } from "@quire/api-types";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface SitesTables {
  sites: SiteTable;
  site_share_links: SiteShareLinkTable;
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
  published: number;
  adaptive_content: number;
  /** JSON of the visitor attributes schema; null until one is set. */
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  auth_backend: Schema<"VisitorAuthBackend">;
  /** The key signing visitor tokens, encrypted at rest (see `visitor-auth.ts`). */
  auth_key: string;
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
  active: number;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends SitesTables {}
}
