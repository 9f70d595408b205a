import { createHash, randomBytes } from "node:crypto";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { PendingMethod, PendingSignInTable, UserFactorTable } from "./tables.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

type Context = { clock: Clock; ids: IdGenerator };

/** A user's factors that count (confirmed), oldest first. */
export function activeFactors(db: Db, userId: string): Promise<UserFactorTable[]> {
  return db
    .selectFrom("user_factors")
    .selectAll()
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const found = await db
    .selectFrom("user_factors")
    .select("id")
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();
  return found !== undefined;
}

/** An organization of the user's that requires a second factor (the first by title), if any. */
export function organizationRequiringSecondFactor(
  db: Db,
  userId: string,
): Promise<{ title: string } | undefined> {
  return db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.organization_id")
    .select("organizations.title")
    .where("memberships.user_id", "=", userId)
    .where("organizations.require_second_factor", "=", 1)
    .orderBy("organizations.title")
    .executeTakeFirst();
}

export async function insertFactor(db: Db, row: UserFactorTable): Promise<void> {
  await db.insertInto("user_factors").values(row).execute();
}

/** The authenticator app a user is setting up, if any. */
export function unconfirmedTotp(db: Db, userId: string): Promise<UserFactorTable | undefined> {
  return db
    .selectFrom("user_factors")
    .selectAll()
    .where("user_id", "=", userId)
    .where("kind", "=", "totp")
    .where("confirmed_at", "is", null)
    .executeTakeFirst();
}

export async function deleteUnconfirmedTotp(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom("user_factors")
    .where("user_id", "=", userId)
    .where("kind", "=", "totp")
    .where("confirmed_at", "is", null)
    .execute();
}

/**
 * Records that the code of `step` was accepted: false when that step or a later one already was (a
 * replay, or a concurrent use of the same code), decided by one conditional update. With
 * `confirmAs`, it also turns the factor on, named so.
 */
export async function useTotpStep(
  db: Db,
  factorId: string,
  step: number,
  now: Date,
  confirmAs?: string,
): Promise<boolean> {
  const used = await db
    .updateTable("user_factors")
    .set({
      totp_last_step: step,
      last_used_at: timestamp(now),
      ...(confirmAs !== undefined && { confirmed_at: timestamp(now), name: confirmAs }),
    })
    .where("id", "=", factorId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** One of a user's factors, confirmed or not. */
export function factorOf(db: Db, userId: string, factorId: string): Promise<UserFactorTable | undefined> {
  return db
    .selectFrom("user_factors")
    .selectAll()
    .where("user_id", "=", userId)
    .where("id", "=", factorId)
    .executeTakeFirst();
}

export function passkeyOf(
  db: Db,
  userId: string,
  credentialId: string,
): Promise<UserFactorTable | undefined> {
  return db
    .selectFrom("user_factors")
    .selectAll()
    .where("user_id", "=", userId)
    .where("kind", "=", "passkey")
    .where("credential_id", "=", credentialId)
    .executeTakeFirst();
}

export async function recordPasskeyUse(
  db: Db,
  factorId: string,
  signCount: number,
  now: Date,
): Promise<void> {
  await db
    .updateTable("user_factors")
    .set({ sign_count: signCount, last_used_at: timestamp(now) })
    .where("id", "=", factorId)
    .execute();
}

/** Removes one of a user's factors and returns it; undefined when they have none with that id. */
export function deleteFactorRow(
  db: Db,
  userId: string,
  factorId: string,
): Promise<UserFactorTable | undefined> {
  return db
    .deleteFrom("user_factors")
    .where("user_id", "=", userId)
    .where("id", "=", factorId)
    .returningAll()
    .executeTakeFirst();
}

/** 32 characters without look-alikes (no i, l, o, 1): a byte's low five bits pick one evenly. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789";
const RECOVERY_CODE_COUNT = 10;

/** Sixteen characters (80 bits), in groups of four. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(16)].map((byte) => RECOVERY_ALPHABET.charAt(byte % 32));
  return chars.join("").replace(/(.{4})(?=.)/g, "$1-");
}

/** What a person typed, as the code was made: case, spaces and dashes do not matter. */
const normalCode = (code: string) =>
  code
    .toLowerCase()
    .replace(/[\s-]/g, "")
    .replace(/(.{4})(?=.)/g, "$1-");

/** Replaces a user's recovery codes with new ones, returned in clear once; only their hashes are kept. */
export async function replaceRecoveryCodes(db: Db, context: Context, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const at = timestamp(context.clock.now());
  await deleteRecoveryCodes(db, userId);
  await db
    .insertInto("recovery_codes")
    .values(
      codes.map((code) => ({
        id: context.ids.next(),
        user_id: userId,
        code_hash: sha256(code),
        created_at: at,
        used_at: null,
      })),
    )
    .execute();
  return codes;
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
}

/** Uses one of a user's recovery codes: true once, false for any later or concurrent use. */
export async function useRecoveryCode(db: Db, userId: string, code: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable("recovery_codes")
    .set({ used_at: timestamp(now) })
    .where("user_id", "=", userId)
    .where("code_hash", "=", sha256(normalCode(code)))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Starts a sign-in waiting for its second factor; returns the token its cookie carries (never stored). */
export async function createPendingSignIn(
  db: Db,
  context: Context,
  pending: { userId: string; method: PendingMethod; next: string; validForMs: number },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = context.clock.now();
  // A user's pending sign-ins past their end go when they start another: no task sweeps them.
  await db
    .deleteFrom("pending_sign_ins")
    .where("user_id", "=", pending.userId)
    .where("expires_at", "<=", timestamp(now))
    .execute();
  await db
    .insertInto("pending_sign_ins")
    .values({
      id: context.ids.next(),
      token_hash: sha256(token),
      user_id: pending.userId,
      method: pending.method,
      next: pending.next,
      attempts: 0,
      challenge: null,
      created_at: timestamp(now),
      expires_at: timestamp(now, pending.validForMs),
    })
    .execute();
  return token;
}

/** The pending sign-in a cookie's token names, while unexpired. */
export function pendingSignIn(db: Db, token: string, now: Date): Promise<PendingSignInTable | undefined> {
  return db
    .selectFrom("pending_sign_ins")
    .selectAll()
    .where("token_hash", "=", sha256(token))
    .where("expires_at", ">", timestamp(now))
    .executeTakeFirst();
}

/** Counts a wrong code; returns how many there were, the one counted included. */
export async function countWrongCode(db: Db, pendingId: string): Promise<number> {
  const row = await db
    .updateTable("pending_sign_ins")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", pendingId)
    .returning("attempts")
    .executeTakeFirst();
  return row?.attempts ?? Number.POSITIVE_INFINITY;
}

export async function setPendingChallenge(db: Db, pendingId: string, challenge: string): Promise<void> {
  await db.updateTable("pending_sign_ins").set({ challenge }).where("id", "=", pendingId).execute();
}

/** Ends a pending sign-in: true for the one caller that ended it, so that it signs in once. */
export async function endPendingSignIn(db: Db, pendingId: string): Promise<boolean> {
  const ended = await db.deleteFrom("pending_sign_ins").where("id", "=", pendingId).executeTakeFirst();
  return ended.numDeletedRows > 0n;
}

/** Keeps the challenge of the passkey a user is adding, replacing the one of an earlier attempt. */
export async function storePasskeyChallenge(
  db: Db,
  userId: string,
  challenge: string,
  expiresAt: string,
): Promise<void> {
  await db
    .insertInto("passkey_challenges")
    .values({ user_id: userId, challenge, expires_at: expiresAt })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ challenge, expires_at: expiresAt }))
    .execute();
}

/** Takes (and so uses up) the challenge of the passkey a user is adding, while unexpired. */
export async function takePasskeyChallenge(db: Db, userId: string, now: Date): Promise<string | undefined> {
  const row = await db
    .deleteFrom("passkey_challenges")
    .where("user_id", "=", userId)
    .returning(["challenge", "expires_at"])
    .executeTakeFirst();
  return row && row.expires_at > timestamp(now) ? row.challenge : undefined;
}
