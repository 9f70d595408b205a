import type { ColumnsOf } from "../db/columns.js";
import type { IdempotencyTables } from "./tables.js";

/** Every column of the idempotency keys' table with its nullability, checked by src/db/schema.test.ts. */
export const idempotencyColumns: ColumnsOf<IdempotencyTables> = {
  idempotency_keys: {
    user_id: "not null",
    key: "not null",
    fingerprint: "not null",
    status: "null",
    answer: "null",
    created_at: "not null",
    expires_at: "not null",
  },
};
