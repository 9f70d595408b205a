import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface InvitesTables {
  invite_links: InviteLinkTable;
  email_invitations: EmailInvitationTable;
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

/** The one-time link mailed to a person invited by email, for the membership the invitation made. */
export interface EmailInvitationTable {
  id: string;
  /** SHA-256 (hex) of the token the link carries: a copy of the table lets nobody join. */
  token_hash: string;
  organization_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** Set by the one use a link has. */
  used_at: string | null;
}

declare module "../db/schema.js" {
  interface Database extends InvitesTables {}
}
