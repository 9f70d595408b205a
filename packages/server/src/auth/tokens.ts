import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { holdsAnyGrant } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";

const TOKEN_PREFIX = "quire_";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates an API token for a user; the token is returned once and only its hash is stored. */
export async function issueToken(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  userId: string,
  label: string,
): Promise<string> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db
    .insertInto("api_tokens")
    .values({
      id: ids.next(),
      user_id: userId,
      token_hash: hashToken(token),
      label,
      created_at: timestamp(clock.now()),
    })
    .execute();
  return token;
}

/**
 * The user a bearer token belongs to and whether they hold any grant on content (see
 * `grantHolders`), or undefined for an unknown token.
 */
export async function userForToken(
  db: Db,
  token: string,
): Promise<{ user: UserTable; holdsGrants: boolean } | undefined> {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const hash = hashToken(token);
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .selectAll("users")
    .select("api_tokens.token_hash")
    .select(holdsAnyGrant(sql.ref("users.id")).as("holds_grants"))
    .where("api_tokens.token_hash", "=", hash)
    .executeTakeFirst();
  // The index finds the row by hash; the constant-time comparison keeps the final check free of timing leaks.
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return undefined;
  const { token_hash: _hash, holds_grants, ...user } = row;
  return { user, holdsGrants: Boolean(holds_grants) };
}

export interface TokenSummary {
  id: string;
  label: string;
  created_at: string;
}

/** A user's tokens, oldest first, without their hashes. */
export function listTokens(db: Db, userId: string): Promise<TokenSummary[]> {
  return db
    .selectFrom("api_tokens")
    .select(["id", "label", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Deletes a token; false when there is none with that id. */
export async function revokeToken(db: Db, tokenId: string): Promise<boolean> {
  const result = await db.deleteFrom("api_tokens").where("id", "=", tokenId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
