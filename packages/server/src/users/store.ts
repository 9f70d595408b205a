import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";

export interface NewUser {
  email: string;
  displayName: string;
}

export async function createUser(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  input: NewUser,
): Promise<UserTable> {
  const user: UserTable = {
    id: ids.next(),
    display_name: input.displayName,
    email: input.email.toLowerCase(),
    photo_url: null,
    created_at: timestamp(clock.now()),
  };
  await db.insertInto("users").values(user).execute();
  return user;
}

export function findUserByEmail(db: Db, email: string): Promise<UserTable | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
}

export async function hasUsers(db: Db): Promise<boolean> {
  return (await db.selectFrom("users").select("id").limit(1).executeTakeFirst()) !== undefined;
}

/** The users of `ids` that exist, by id (one statement; none for no ids). */
export async function usersByIds(db: Db, ids: Iterable<string>): Promise<Map<string, UserTable>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom("users").selectAll().where("id", "in", unique).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function setDisplayName(db: Db, userId: string, displayName: string): Promise<void> {
  await db.updateTable("users").set({ display_name: displayName }).where("id", "=", userId).execute();
}
