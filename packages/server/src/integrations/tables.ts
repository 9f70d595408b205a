import type { Schema } from "@quire/api-types";
import type { Flag, JsonText } from "../db/codecs.js";

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
  integration_events: IntegrationEventTable;
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
  verified: Flag;
  /** As published. */
  scopes: JsonText<Schema<"IntegrationScope">[]>;
  categories: JsonText<Schema<"IntegrationCategory">[]>;
  blocks: JsonText<Schema<"IntegrationBlock">[]>;
  content_sources: JsonText<Schema<"IntegrationContentSource">[]>;
  external_links: JsonText<Schema<"IntegrationExternalLink">[]>;
  /** Null when none was published. */
  configurations: JsonText<Schema<"IntegrationConfigurations">> | null;
  content_security_policy: string | null;
  script: string;
  /** Each secret's name to its value encrypted by `secrets.ts`; never shown. */
  secrets: JsonText<Record<string, string>>;
  /** SHA-256 of the icon in `integration_images`, or null without one. */
  icon: string | null;
  /** The SHA-256 of each preview image in `integration_images`, in order. */
  preview_images: JsonText<string[]>;
  /** Where its events are POSTed; null: none are sent. */
  events_url: string | null;
  /** The secret its events are signed with, encrypted by `secrets.ts`; made at the first publication. */
  signing_secret: string | null;
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
  /** Valid against the integration's `configurations.account`. */
  configuration: JsonText<Record<string, unknown>>;
  /** In the order they were given; indexed by the next table. */
  external_ids: JsonText<string[]>;
  created_at: string;
  updated_at: string;
}

/** The external ids of installations, one row each, for the `externalId` filter. */
export interface InstallationExternalIdTable {
  installation_id: string;
  external_id: string;
}

/** An event sent (or being sent) to an integration for one of its installations. */
export interface IntegrationEventTable {
  id: string;
  integration_id: string;
  installation_id: string;
  organization_id: string;
  /** The event of the organization's stream it was made from. */
  event_id: string;
  type: Schema<"IntegrationEventPayload">["type"];
  /** The body sent, made when the record was. */
  payload: JsonText<Schema<"IntegrationEventPayload">>;
  /** Pending until an attempt succeeds or the last one failed; listed once attempted. */
  status: "pending" | "success" | "failed";
  attempts: number;
  /** When the next attempt is due, while pending. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  /** The runner sending it, until `lease_until`. */
  lease_token: string | null;
  lease_until: string | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends IntegrationsTables {}
}
