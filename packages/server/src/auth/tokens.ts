import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { holdsAnyGrant } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import { lacksRequiredFactor } from "./required-factor.js";
import { recordUserEvent } from "./user-events.js";

const TOKEN_PREFIX = "quire_";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates an API token for a user; the token is returned once and only its hash is stored. */
export async function issueToken(
  db: Db,
  context: { clock: Clock; ids: IdGenerator },
  userId: string,
  label: string,
): Promise<string> {
  return (await createToken(db, context, userId, label)).secret;
}

/**
 * Creates an API token for a user, as `issueToken`, with its summary; `actorId` is who asked for it
 * through the API (none from the command line).
 */
export async function createToken(
  db: Db,
  context: { clock: Clock; ids: IdGenerator },
  userId: string,
  label: string,
  actorId?: string,
): Promise<TokenSummary & { secret: string }> {
  const secret = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = {
    id: context.ids.next(),
    user_id: userId,
    token_hash: hashToken(secret),
    label,
    created_at: timestamp(context.clock.now()),
  };
  await db.transaction().execute(async (tx) => {
    await tx.insertInto("api_tokens").values(row).execute();
    await recordTokenEvent(tx, context, "token_created", row, actorId);
  });
  return { id: row.id, label, created_at: row.created_at, secret };
}

/** From the command line on the server, no user of the API is the actor; through the API, its caller is. */
const recordTokenEvent = (
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  type: "token_created" | "token_revoked",
  token: { id: string; user_id: string; label: string },
  actorId: string | undefined,
) =>
  recordUserEvent(tx, context, token.user_id, {
    type,
    data: { token: token.id, label: token.label, user: token.user_id },
    ...(actorId !== undefined && { actorId }),
  });

/**
 * The user a bearer token belongs to, the token's id, whether the user holds any grant on content
 * (see `grantHolders`) and whether they lack a second factor an organization of theirs requires
 * (see `lacksRequiredFactor`), or undefined for an unknown token.
 */
export async function userForToken(
  db: Db,
  token: string,
): Promise<
  { user: UserTable; tokenId: string; holdsGrants: boolean; lacksRequiredFactor: boolean } | undefined
> {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const hash = hashToken(token);
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .selectAll("users")
    .select(["api_tokens.token_hash", "api_tokens.id as token_id"])
    .select(holdsAnyGrant(sql.ref("users.id")).as("holds_grants"))
    .select(lacksRequiredFactor(sql.ref("users.id")).as("lacks_required_factor"))
    .where("api_tokens.token_hash", "=", hash)
    .executeTakeFirst();
  // The index finds the row by hash; the constant-time comparison keeps the final check free of timing leaks.
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return undefined;
  const { token_hash: _hash, token_id, holds_grants, lacks_required_factor, ...user } = row;
  return {
    user,
    tokenId: token_id,
    holdsGrants: Boolean(holds_grants),
    lacksRequiredFactor: Boolean(lacks_required_factor),
  };
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

/**
 * Deletes a token; false when there is none with that id (of `owner.userId`, when given: through the
 * API, a person revokes only their own, and is the actor).
 */
export async function revokeToken(
  db: Db,
  context: { clock: Clock; ids: IdGenerator },
  tokenId: string,
  owner?: { userId: string },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    let query = tx.deleteFrom("api_tokens").where("id", "=", tokenId);
    if (owner) query = query.where("user_id", "=", owner.userId);
    const token = await query.returning(["id", "user_id", "label"]).executeTakeFirst();
    if (token) await recordTokenEvent(tx, context, "token_revoked", token, owner?.userId);
    return token !== undefined;
  });
}
