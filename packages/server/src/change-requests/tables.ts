import type { Schema } from "@quire/api-types";
import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface ChangeRequestsTables {
  change_requests: ChangeRequestTable;
  change_request_contributors: ChangeRequestContributorTable;
}

export type ChangeRequestStatus = "draft" | "open" | "archived" | "merged";

export interface ChangeRequestTable {
  id: string;
  space_id: string;
  /** 1, 2, 3… per space, taken under the space's lock; never reused (change requests are never deleted). */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /**
   * `updated_at` with every digit d written 9 − d, so that ascending order is newest first: lists
   * page through it with keyset cursors, which sort ascending.
   */
  recency: string;
  revision_id: string;
  revision_initial_id: string;
  revision_merged_ancestor_id: string | null;
  revision_merged_id: string | null;
  /** GitBook's JSON document describing it, as given; null: none. */
  description: JsonText<Schema<"JSONDocument">> | null;
  /** Its links to outside pages; null: none. */
  links: JsonText<Schema<"ChangeRequestLink">[]> | null;
}

/** Who created or edited a change request's content (the `contributor` filter). */
export interface ChangeRequestContributorTable {
  change_request_id: string;
  user_id: string;
  /** How many times they changed it: created it, edited its content. */
  changes: number;
  /** When they last did; null for contributions made before it was kept. */
  changed_at: string | null;
}

declare module "../db/schema.js" {
  interface Database extends ChangeRequestsTables {}
}
