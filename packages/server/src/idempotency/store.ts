import { hash } from "node:crypto";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { type Answer, ApiError, conflict } from "../http/errors.js";

/** How long an answer is kept for retries of its request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_MAX_LENGTH = 255;

export interface IdempotentRequest {
  userId: string;
  key: string;
  /** Path and query, as sent. */
  url: string;
  body: unknown;
}

/**
 * Runs a POST sent with an `Idempotency-Key` once: the first request with a key runs and its answer
 * (success or refusal, not a server error) is kept for a day; a retry with the same key and the same
 * request gets that answer again, marked `Idempotent-Replayed: true`. The same key with another
 * request is a 422; a retry while the first request still runs, a 409.
 */
export type IdempotentRequests = (request: IdempotentRequest, run: () => Promise<Answer>) => Promise<Answer>;

export function idempotentRequests(db: Db, now: () => Date): IdempotentRequests {
  return async (request, run) => {
    const { userId, key } = request;
    if (key.length === 0 || key.length > KEY_MAX_LENGTH)
      throw new ApiError(400, `Idempotency-Key must be 1 to ${KEY_MAX_LENGTH} characters long.`);
    const fingerprint = hash(
      "sha256",
      `${request.url}\n${JSON.stringify(request.body ?? null)}`,
      "base64url",
    );
    const at = now();
    await db.deleteFrom("idempotency_keys").where("expires_at", "<=", timestamp(at)).execute();
    const inserted = await db
      .insertInto("idempotency_keys")
      .values({
        user_id: userId,
        key,
        fingerprint,
        status: null,
        answer: null,
        created_at: timestamp(at),
        expires_at: timestamp(at, IDEMPOTENCY_KEY_TTL_MS),
      })
      .onConflict((oc) => oc.columns(["user_id", "key"]).doNothing())
      .executeTakeFirst();
    const thisKey = db.selectFrom("idempotency_keys").where("user_id", "=", userId).where("key", "=", key);

    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const first = await thisKey.selectAll().executeTakeFirstOrThrow();
      if (first.fingerprint !== fingerprint)
        throw new ApiError(
          422,
          "This Idempotency-Key was used with another request: use a new key for a new request.",
          { type: "idempotency_key_reused" },
        );
      if (first.status === null)
        throw conflict(
          "The first request with this Idempotency-Key is still running: retry when it has been answered.",
          "idempotency_in_progress",
        );
      const { headers, body } = first.answer === null ? {} : fromJson(first.answer);
      return { status: first.status, headers: { ...headers, "idempotent-replayed": "true" }, body };
    }

    const record = (answer: Answer) =>
      db
        .updateTable("idempotency_keys")
        .set({
          status: answer.status,
          answer: toJson({ headers: answer.headers, body: answer.body }),
        })
        .where("user_id", "=", userId)
        .where("key", "=", key)
        .execute();
    try {
      const answer = await run();
      await record(answer);
      return answer;
    } catch (error) {
      // A refusal is the answer to this request; after a server error, a retry may run it again.
      if (error instanceof ApiError && error.status < 500) await record(error.answer());
      else
        await db
          .deleteFrom("idempotency_keys")
          .where("user_id", "=", userId)
          .where("key", "=", key)
          .execute();
      throw error;
    }
  };
}
