import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { holdsAnyGrant } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import { lacksRequiredFactor } from "./required-factor.js";
import type { SessionTable, SignInMethod } from "./tables.js";

export type { SessionTable, SignInMethod } from "./tables.js";

/** A session ends this long after sign-in, however much it is used: a browser left signed in is asked again. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** ...and earlier when unused this long. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** Seen again within this time, a session is not written to: a request costs one read. */
const LAST_SEEN_PRECISION_MS = 60 * 1000;
const DEVICE_LENGTH = 200;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface NewSession {
  userId: string;
  method: SignInMethod;
  device?: string | undefined;
  address?: string | undefined;
}

/**
 * Opens a session and returns its id and the cookie's secret (never stored). Every sign-in gets a
 * new secret, so a secret planted before sign-in is worth nothing after it.
 */
export async function openSession(
  db: Db,
  context: { clock: Clock; ids: IdGenerator },
  session: NewSession,
): Promise<{ id: string; secret: string }> {
  const now = context.clock.now();
  const at = timestamp(now);
  const id = context.ids.next();
  const secret = randomBytes(32).toString("base64url");
  // Sessions past their end go when their user signs in again: no task needed to sweep them.
  await db
    .deleteFrom("sessions")
    .where("user_id", "=", session.userId)
    .where((eb) =>
      eb.or([eb("expires_at", "<=", at), eb("last_seen_at", "<=", timestamp(now, -SESSION_IDLE_MS))]),
    )
    .execute();
  await db
    .insertInto("sessions")
    .values({
      id,
      secret_hash: sha256(secret),
      user_id: session.userId,
      method: session.method,
      device: session.device?.slice(0, DEVICE_LENGTH) ?? null,
      address: session.address ?? null,
      created_at: at,
      last_seen_at: at,
      expires_at: timestamp(now, SESSION_MAX_AGE_MS),
    })
    .execute();
  return { id, secret };
}

export interface SessionHolder {
  user: UserTable;
  sessionId: string;
  /** Whether the user holds any grant on content (see `grantHolders`). */
  holdsGrants: boolean;
  /** Whether an organization of theirs requires a second factor they lack (see `lacksRequiredFactor`). */
  lacksRequiredFactor: boolean;
}

/**
 * The user of the session whose cookie carries `secret`: undefined when there is none, it has ended
 * (absolutely or for want of use) or its user is gone, in one statement.
 */
export async function sessionHolder(db: Db, secret: string, now: Date): Promise<SessionHolder | undefined> {
  const found = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select(["sessions.id as session_id", "sessions.last_seen_at"])
    .select(holdsAnyGrant(sql.ref("users.id")).as("holds_grants"))
    .select(lacksRequiredFactor(sql.ref("users.id")).as("lacks_required_factor"))
    .where("sessions.secret_hash", "=", sha256(secret))
    .where("sessions.expires_at", ">", timestamp(now))
    .where("sessions.last_seen_at", ">", timestamp(now, -SESSION_IDLE_MS))
    .executeTakeFirst();
  if (!found) return undefined;
  const { session_id, last_seen_at, holds_grants, lacks_required_factor, ...user } = found;
  if (Date.parse(last_seen_at) <= now.getTime() - LAST_SEEN_PRECISION_MS)
    await db
      .updateTable("sessions")
      .set({ last_seen_at: timestamp(now) })
      .where("id", "=", session_id)
      .execute();
  return {
    user,
    sessionId: session_id,
    holdsGrants: Boolean(holds_grants),
    lacksRequiredFactor: Boolean(lacks_required_factor),
  };
}

/**
 * Whether `device` is new to the user: they have sessions, none from it. (The first session of all
 * is no news; a device is known by the `User-Agent` its sessions were opened with.)
 */
export async function isNewDevice(db: Db, userId: string, device: string | undefined): Promise<boolean> {
  const devices = await db.selectFrom("sessions").select("device").where("user_id", "=", userId).execute();
  const shortened = device?.slice(0, DEVICE_LENGTH) ?? null;
  return devices.length > 0 && !devices.some((row) => row.device === shortened);
}

/** Ends the session whose cookie carries `secret`; nothing happens for an unknown one. */
export async function closeSessionBySecret(db: Db, secret: string): Promise<SessionTable | undefined> {
  return db
    .deleteFrom("sessions")
    .where("secret_hash", "=", sha256(secret))
    .returningAll()
    .executeTakeFirst();
}

/** A user's sessions still open, most recently used first. */
export function listSessions(db: Db, userId: string, now: Date): Promise<SessionTable[]> {
  return db
    .selectFrom("sessions")
    .selectAll()
    .where("user_id", "=", userId)
    .where("expires_at", ">", timestamp(now))
    .where("last_seen_at", ">", timestamp(now, -SESSION_IDLE_MS))
    .orderBy("last_seen_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Ends one of a user's sessions; false when they have none with that id. */
export async function closeSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const closed = await db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where("id", "=", sessionId)
    .executeTakeFirst();
  return closed.numDeletedRows > 0n;
}

/** Ends every session of a user but one (a new password, changed while signed in); returns how many. */
export async function closeOtherSessions(db: Db, userId: string, keepSessionId: string): Promise<number> {
  const closed = await db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where("id", "!=", keepSessionId)
    .executeTakeFirst();
  return Number(closed.numDeletedRows);
}

/** Ends every session of a user (sign out everywhere, a new password); returns how many. */
export async function closeAllSessions(db: Db, userId: string): Promise<number> {
  const closed = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(closed.numDeletedRows);
}
