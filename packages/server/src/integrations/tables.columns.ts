import type { ColumnsOf } from "../db/columns.js";
import type { IntegrationsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const integrationsColumns: ColumnsOf<IntegrationsTables> = {
  integrations: {
    id: "not null",
    name: "not null",
    owner_organization_id: "not null",
    version: "not null",
    title: "not null",
    search_title: "not null",
    description: "not null",
    summary: "null",
    visibility: "not null",
    target: "not null",
    verified: "not null",
    scopes: "not null",
    categories: "not null",
    blocks: "not null",
    content_sources: "not null",
    external_links: "not null",
    configurations: "null",
    content_security_policy: "null",
    script: "not null",
    secrets: "not null",
    icon: "null",
    preview_images: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  integration_images: {
    integration_id: "not null",
    hash: "not null",
    data: "not null",
  },
  integration_block_domains: {
    integration_id: "not null",
    domain: "not null",
  },
  integration_installations: {
    id: "not null",
    integration_id: "not null",
    organization_id: "not null",
    status: "not null",
    space_selection: "not null",
    site_selection: "not null",
    configuration: "not null",
    external_ids: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  integration_installation_external_ids: {
    installation_id: "not null",
    external_id: "not null",
  },
};
