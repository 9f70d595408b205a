/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface IntegrationsTables {
  integrations: IntegrationTable;
  integration_images: IntegrationImageTable;
  integration_block_domains: IntegrationBlockDomainTable;
  integration_installations: InstallationTable;
  integration_installation_external_ids: InstallationExternalIdTable;
}

/** The published definition of an integration; a new publication replaces it and raises `version`. */
export interface IntegrationTable {
  id: string;
  /** Unique across every organization. */
  name: string;
  owner_organization_id: string;
  version: number;
  title: string;
  /** `title` lowercased by the server, so that search folds case alike on both databases. */
  search_title: string;
  description: string;
  summary: string | null;
  visibility: "public" | "private" | "unlisted";
  target: "all" | "site" | "space" | "organization";
  verified: number;
  /** JSON arrays: scopes, categories, blocks, content sources and external links as published. */
  scopes: string;
  categories: string;
  blocks: string;
  content_sources: string;
  external_links: string;
  /** JSON `IntegrationConfigurations`, or null when none was published. */
  configurations: string | null;
  content_security_policy: string | null;
  script: string;
  /** JSON object: each secret's name to its value encrypted by `secrets.ts`; never shown. */
  secrets: string;
  /** SHA-256 of the icon in `integration_images`, or null without one. */
  icon: string | null;
  /** JSON array of the SHA-256 of each preview image in `integration_images`, in order. */
  preview_images: string;
  created_at: string;
  updated_at: string;
}

/** The PNG images of an integration, by content hash; base64 text, stored alike on both databases. */
export interface IntegrationImageTable {
  integration_id: string;
  hash: string;
  data: string;
}

/**
 * Each domain the URLs a block unfurls live under: a host and every parent domain of it, so that the
 * `blockDomain` filter is one equality.
 */
export interface IntegrationBlockDomainTable {
  integration_id: string;
  domain: string;
}

/** An installation of an integration on an organization; one per integration and organization. */
export interface InstallationTable {
  id: string;
  integration_id: string;
  organization_id: string;
  status: "active" | "pending" | "paused";
  space_selection: "all" | "selected";
  site_selection: "all" | "selected";
  /** JSON object, valid against the integration's `configurations.account`. */
  configuration: string;
  /** JSON array of strings, in the order they were given; indexed by the next table. */
  external_ids: string;
  created_at: string;
  updated_at: string;
}

/** The external ids of installations, one row each, for the `externalId` filter. */
export interface InstallationExternalIdTable {
  installation_id: string;
  external_id: string;
}

declare module "../db/schema.js" {
  interface Database extends IntegrationsTables {}
}
