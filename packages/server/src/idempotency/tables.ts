import type { JsonText } from "../db/codecs.js";
import type { Answer } from "../http/errors.js";

/** Row types of the idempotency keys' table, joined into `Database` (src/db/schema.ts). */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyTable;
}

/** A POST sent with an `Idempotency-Key`: while it runs, then the answer it got, until it expires. */
export interface IdempotencyKeyTable {
  user_id: string;
  /** The client's key, unique per user. */
  key: string;
  /** SHA-256 of the request's path, query and body: the same key must come with the same request. */
  fingerprint: string;
  /** Null while the first request runs. */
  status: number | null;
  /** The answer's headers and body, once answered. */
  answer: JsonText<Omit<Answer, "status">> | null;
  created_at: string;
  expires_at: string;
}
