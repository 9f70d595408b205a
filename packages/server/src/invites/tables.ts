import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface InvitesTables {
  invite_links: InviteLinkTable;
}

export interface InviteLinkTable {
  id: string;
  organization_id: string;
  /**
   * The role given in the organization, null for a guest; for an invite to a space or collection,
   * the level given there (never null).
   */
  role: Role | null;
  /** Null once its creator's user is gone. */
  created_by: string | null;
  created_at: string;
  /** Set for an invite to this space. */
  space_id: string | null;
  /** Set for an invite to this collection. */
  collection_id: string | null;
}

declare module "../db/schema.js" {
  interface Database extends InvitesTables {}
}
