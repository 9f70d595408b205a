import { createHash, randomBytes } from "node:crypto";
import type { Caller } from "../auth/caller.js";
import { userForToken } from "../auth/tokens.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";

/** How long a session lasts after sign-in, whatever its use: a browser left signed in is asked again. */
export const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Seen again within this time, a session is not written to: a page view costs one read. */
const LAST_SEEN_PRECISION_MS = 60 * 1000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Opens a session for the holder of an API token, verified as the API verifies a bearer token, and
 * returns the session's id (for the cookie, never stored), or undefined for an unknown token.
 */
export async function openSession(db: Db, token: string, now: Date): Promise<string | undefined> {
  const found = await userForToken(db, token);
  if (!found) return undefined;
  // The token's row: `api_tokens` keeps each token's SHA-256 (see `ApiTokenTable`).
  const row = await db
    .selectFrom("api_tokens")
    .select("id")
    .where("token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row) return undefined;
  const id = randomBytes(32).toString("base64url");
  const at = timestamp(now);
  // Sessions past their expiry go when their user signs in again: no task needed to sweep them.
  await db
    .deleteFrom("app_sessions")
    .where("user_id", "=", found.user.id)
    .where("expires_at", "<=", at)
    .execute();
  await db
    .insertInto("app_sessions")
    .values({
      id_hash: sha256(id),
      user_id: found.user.id,
      token_id: row.id,
      created_at: at,
      expires_at: timestamp(now, SESSION_MAX_AGE_MS),
      last_seen_at: at,
    })
    .execute();
  return id;
}

/**
 * The caller of a session: undefined when there is none with this id, it has expired, or its token
 * was revoked (the token's row is gone: the join finds nothing), all in one statement.
 */
export async function sessionCaller(db: Db, id: string, now: Date): Promise<Caller | undefined> {
  const found = await db
    .selectFrom("app_sessions")
    .innerJoin("api_tokens", (join) =>
      join
        .onRef("api_tokens.id", "=", "app_sessions.token_id")
        .onRef("api_tokens.user_id", "=", "app_sessions.user_id"),
    )
    .innerJoin("users", "users.id", "app_sessions.user_id")
    .selectAll("users")
    .select(["app_sessions.id_hash", "app_sessions.last_seen_at", "app_sessions.token_id"])
    .where("app_sessions.id_hash", "=", sha256(id))
    .where("app_sessions.expires_at", ">", timestamp(now))
    .executeTakeFirst();
  if (!found) return undefined;
  const { id_hash, last_seen_at, token_id, ...user } = found;
  if (Date.parse(last_seen_at) <= now.getTime() - LAST_SEEN_PRECISION_MS)
    await db
      .updateTable("app_sessions")
      .set({ last_seen_at: timestamp(now) })
      .where("id_hash", "=", id_hash)
      .execute();
  // A session acts with the token it was opened with.
  return { user, tokenId: token_id };
}

/** Ends a session; nothing happens for an unknown id. */
export async function closeSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("app_sessions").where("id_hash", "=", sha256(id)).execute();
}
