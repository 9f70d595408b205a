import type { ColumnsOf } from "../db/columns.js";
import type { AccountsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const accountsColumns: ColumnsOf<AccountsTables> = {
  user_passwords: { user_id: "not null", hash: "not null", changed_at: "not null" },
  sign_in_links: {
    id: "not null",
    token_hash: "not null",
    user_id: "not null",
    purpose: "not null",
    created_at: "not null",
    expires_at: "not null",
    used_at: "null",
  },
  user_factors: {
    id: "not null",
    user_id: "not null",
    kind: "not null",
    name: "not null",
    created_at: "not null",
    confirmed_at: "null",
    last_used_at: "null",
    totp_secret: "null",
    totp_last_step: "null",
    credential_id: "null",
    public_key: "null",
    sign_count: "null",
    transports: "null",
  },
  recovery_codes: {
    id: "not null",
    user_id: "not null",
    code_hash: "not null",
    created_at: "not null",
    used_at: "null",
  },
  pending_sign_ins: {
    id: "not null",
    token_hash: "not null",
    user_id: "not null",
    method: "not null",
    next: "not null",
    attempts: "not null",
    challenge: "null",
    created_at: "not null",
    expires_at: "not null",
  },
  passkey_challenges: { user_id: "not null", challenge: "not null", expires_at: "not null" },
};
