/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Timestamps are
 * ISO 8601 text, as everywhere.
 */
export interface AccountsTables {
  user_passwords: UserPasswordTable;
  sign_in_links: SignInLinkTable;
  user_factors: UserFactorTable;
  recovery_codes: RecoveryCodeTable;
  pending_sign_ins: PendingSignInTable;
  passkey_challenges: PasskeyChallengeTable;
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

export type FactorKind = "totp" | "passkey";

/** A second factor: an authenticator app's secret or a passkey, by `kind`. */
export interface UserFactorTable {
  id: string;
  user_id: string;
  kind: FactorKind;
  name: string;
  created_at: string;
  /** Null while an authenticator app is being set up: it counts once a code of it was confirmed. */
  confirmed_at: string | null;
  last_used_at: string | null;
  /** The TOTP secret (base32), sealed under the server's key with the factor's id (`encryptSecrets`). */
  totp_secret: string | null;
  /** The last 30-second step whose code was accepted: a code works once. */
  totp_last_step: number | null;
  /** A passkey's credential id, base64url. */
  credential_id: string | null;
  /** A passkey's COSE public key, base64url. */
  public_key: string | null;
  /** A passkey's signature counter (a bigint: a string on PostgreSQL). */
  sign_count: number | string | null;
  /** The passkey's transports, a JSON array. */
  transports: string | null;
}

/** A recovery code, good for one sign-in in place of a second factor. */
export interface RecoveryCodeTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the code: 80 random bits, so a plain hash withstands a copy of the table. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** How a pending sign-in began: the session's method once the second factor is given. */
export type PendingMethod = "password" | "link";

/** A sign-in past its password or link, waiting for the second factor; its token is in a cookie. */
export interface PendingSignInTable {
  id: string;
  /** SHA-256 (hex) of the cookie's token. */
  token_hash: string;
  user_id: string;
  method: PendingMethod;
  /** Where to go once signed in. */
  next: string;
  /** Wrong codes given so far. */
  attempts: number;
  /** The challenge of the last passkey options sent for it. */
  challenge: string | null;
  created_at: string;
  expires_at: string;
}

/** The challenge of the passkey a user is adding, one at a time. */
export interface PasskeyChallengeTable {
  user_id: string;
  challenge: string;
  expires_at: string;
}

declare module "../db/schema.js" {
  interface Database extends AccountsTables {}
}
