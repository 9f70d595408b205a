import type { Schema } from "@quire/api-types";
import type { SecretKeyTables, SessionTables } from "../auth/tables.js";
import type { ContentTables } from "../content/tables.js";
import type { EventsTables } from "../events/tables.js";
import type { IdempotencyTables } from "../idempotency/tables.js";
import type { JobsTables } from "../jobs/tables.js";
import type { LimitsTables } from "../limits/tables.js";
import type { Flag, JsonText } from "./codecs.js";

/**
 * Row types of every table. Booleans are stored as 0/1 integers (`Flag`), JSON as text (`JsonText`)
 * and timestamps as ISO 8601 text, so that SQLite and PostgreSQL hold (and sort) them the same way;
 * db/codecs.ts converts them. Here are the tables the kernel writes or reads; each area adds its own
 * from its `tables.ts` by declaration merging
 * (`declare module "../db/schema.js" { interface Database extends ... {} }`), so that db/ imports no area.
 */
export interface Database
  extends ContentTables,
    JobsTables,
    EventsTables,
    LimitsTables,
    IdempotencyTables,
    SecretKeyTables,
    SessionTables {
  users: UserTable;
  api_tokens: ApiTokenTable;
  organizations: OrganizationTable;
  collections: CollectionTable;
  spaces: SpaceTable;
}

export type Role = "admin" | "create" | "review" | "edit" | "comment" | "read";

export interface UserTable {
  id: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  created_at: string;
}

export interface ApiTokenTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  label: string;
  created_at: string;
}

export interface OrganizationTable {
  id: string;
  title: string;
  type: "business" | "community";
  use_case: string | null;
  community_type: string | null;
  hostname: string | null;
  email_domains: JsonText<string[]>;
  default_role: Role | null;
  default_content_site: string | null;
  sso: Flag;
  ai: Flag;
  invite_links: Flag;
  plan: string;
  logo_url: string | null;
  trial_status: string;
  created_at: string;
  updated_at: string;
  /** The organization's merge rules; null: none. */
  merge_rules: JsonText<Schema<"MergeRulesStandaloneConfiguration">> | null;
  /** Members without a second factor may only add one (see auth/required-factor.ts). */
  require_second_factor: Flag;
}

/** Collections and spaces share one ordering among the siblings of a parent: `position`. */
export interface CollectionTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: Role;
  /** `default_level` follows the parent's (GitBook's `inherit`); see `settleInheritedLevels`. */
  default_level_inherited: Flag;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface SpaceTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string;
  visibility: string;
  edit_mode: "live" | "locked";
  default_level: Role;
  /** `default_level` follows the parent collection's (GitBook's `inherit`); see `settleInheritedLevels`. */
  default_level_inherited: Flag;
  revision_id: string;
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Open comments on the space itself (not on its change requests). */
  open_comments: number;
  change_requests: number;
  open_change_requests: number;
  draft_change_requests: number;
  /** The space's Git Sync as the API shows it, kept here by the Git Sync area; null when not connected. */
  git_sync: JsonText<Schema<"SpaceGitSync">> | null;
  /** The space's own merge rules; null: its organization's (`inherit`). */
  merge_rules: JsonText<Schema<"MergeRulesStandaloneConfiguration">> | null;
  /** The language of its content (GitBook's `TranslationLanguage`); null when not set. */
  language: string | null;
}
