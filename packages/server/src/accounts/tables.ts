/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Timestamps are
 * ISO 8601 text, as everywhere.
 */
export interface AccountsTables {
  user_passwords: UserPasswordTable;
  sign_in_links: SignInLinkTable;
}

export interface UserPasswordTable {
  user_id: string;
  /** The PHC string argon2id makes: its parameters and salt with the hash. */
  hash: string;
  changed_at: string;
}

/** What a one-time link lets its holder do. */
export type LinkPurpose = "sign_in" | "reset";

export interface SignInLinkTable {
  id: string;
  /** SHA-256 (hex) of the token the link carries: a copy of the table lets nobody in. */
  token_hash: string;
  user_id: string;
  purpose: LinkPurpose;
  created_at: string;
  expires_at: string;
  /** Set by the one use a link has. */
  used_at: string | null;
}

declare module "../db/schema.js" {
  interface Database extends AccountsTables {}
}
