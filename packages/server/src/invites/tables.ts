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
  role: Role;
  /** Null once its creator's user is gone. */
  created_by: string | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends InvitesTables {}
}
