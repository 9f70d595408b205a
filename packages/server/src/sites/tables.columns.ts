import type { ColumnsOf } from "../db/columns.js";
import type { SitesTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const sitesColumns: ColumnsOf<SitesTables> = {
  sites: {
    id: "not null",
    organization_id: "not null",
    type: "not null",
    title: "not null",
    basename: "null",
    proxy_origin: "null",
    visibility: "not null",
    published: "not null",
    adaptive_content: "not null",
    adaptive_schema: "null",
    adaptive_schema_updated_at: "null",
    auth_backend: "not null",
    auth_key: "not null",
    auth_fallback_url: "null",
    auth_logout_url: "null",
    created_at: "not null",
    updated_at: "not null",
  },
  site_share_links: {
    id: "not null",
    site_id: "not null",
    name: "not null",
    share_key: "not null",
    active: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
};
