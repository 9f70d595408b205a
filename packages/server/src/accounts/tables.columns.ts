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
};
