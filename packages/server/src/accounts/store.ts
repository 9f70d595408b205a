import { createHash, randomBytes } from "node:crypto";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import type { LinkPurpose } from "./tables.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The user an email names and their password's hash, if they have one. */
export function accountByEmail(
  db: Db,
  email: string,
): Promise<(UserTable & { password_hash: string | null }) | undefined> {
  return db
    .selectFrom("users")
    .leftJoin("user_passwords", "user_passwords.user_id", "users.id")
    .selectAll("users")
    .select("user_passwords.hash as password_hash")
    .where("users.email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function passwordHashOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("user_passwords")
    .select("hash")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.hash;
}

/** Sets a user's password hash, replacing the one they had. */
export async function storePassword(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .insertInto("user_passwords")
    .values({ user_id: userId, hash, changed_at: timestamp(now) })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ hash, changed_at: timestamp(now) }))
    .execute();
}

/** Makes a one-time link's token for a user; only its hash is stored. */
export async function createLinkToken(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  link: { userId: string; purpose: LinkPurpose; validForMs: number },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = clock.now();
  await db
    .insertInto("sign_in_links")
    .values({
      id: ids.next(),
      token_hash: sha256(token),
      user_id: link.userId,
      purpose: link.purpose,
      created_at: timestamp(now),
      expires_at: timestamp(now, link.validForMs),
      used_at: null,
    })
    .execute();
  return token;
}

/** The user a link's token is for, while it is unused and unexpired; it does not use it. */
export async function linkHolder(
  db: Db,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<UserTable | undefined> {
  return db
    .selectFrom("sign_in_links")
    .innerJoin("users", "users.id", "sign_in_links.user_id")
    .selectAll("users")
    .where("sign_in_links.token_hash", "=", sha256(token))
    .where("sign_in_links.purpose", "=", purpose)
    .where("sign_in_links.used_at", "is", null)
    .where("sign_in_links.expires_at", ">", timestamp(now))
    .executeTakeFirst();
}

/**
 * Uses a link: returns its user once, and undefined to every later or concurrent use, an expired
 * link and an unknown token alike (one conditional update decides).
 */
export async function useLink(
  db: Db,
  token: string,
  purpose: LinkPurpose,
  now: Date,
): Promise<UserTable | undefined> {
  const used = await db
    .updateTable("sign_in_links")
    .set({ used_at: timestamp(now) })
    .where("token_hash", "=", sha256(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", timestamp(now))
    .returning("user_id")
    .executeTakeFirst();
  return used && db.selectFrom("users").selectAll().where("id", "=", used.user_id).executeTakeFirst();
}

/**
 * An organization where this user may sign in only through single sign-on (it enforces it, and they
 * are no admin there: admins keep their password, the way back in when the provider fails), if any.
 */
export function ssoOnlyOrganization(db: Db, userId: string): Promise<{ title: string } | undefined> {
  return db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.organization_id")
    .select("organizations.title")
    .where("memberships.user_id", "=", userId)
    .where("organizations.sso", "=", 1)
    .where((eb) => eb.or([eb("memberships.role", "is", null), eb("memberships.role", "!=", "admin")]))
    .orderBy("organizations.title")
    .executeTakeFirst();
}
