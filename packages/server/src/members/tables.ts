import type { Generated } from "kysely";
import type { Flag } from "../db/codecs.js";
import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface MembersTables {
  memberships: MembershipTable;
  content_permissions: ContentPermissionTable;
}

export interface MembershipTable {
  organization_id: string;
  user_id: string;
  /** Null for a guest: a member who gets only the content granted to them. */
  role: Role | null;
  joined_at: string;
  /** Null until the member's first ping. */
  last_seen_at: Generated<string | null>;
  /** Set when the member signs in through single sign-on; unset unless given. */
  sso: Generated<Flag>;
}

/**
 * A role given to one user or one team on one space or collection (and what the collection
 * contains). `content_id` is `space_id ?? collection_id`, `principal_id` is `user_id ?? team_id`.
 */
export interface ContentPermissionTable {
  content_id: string;
  principal_id: string;
  organization_id: string;
  space_id: string | null;
  collection_id: string | null;
  user_id: string | null;
  team_id: string | null;
  role: Role;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends MembersTables {}
}
