import type { Schema } from "@quire/api-types";
import type { UserTable } from "../db/schema.js";
import type { Urls } from "../urls.js";

export function presentUser(row: UserTable, urls: Urls): Schema<"User"> {
  return {
    object: "user",
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    ...(row.photo_url !== null && { photoURL: row.photo_url }),
    urls: { location: urls.api(`users/${row.id}`) },
  };
}

/**
 * The user `id` among `users` (read for the rows that name them): users are never deleted, so a
 * missing one is a bug, not an answer.
 */
export function presentUserIn(users: ReadonlyMap<string, UserTable>, id: string, urls: Urls): Schema<"User"> {
  const user = users.get(id);
  if (!user) throw new Error(`User ${id} is missing.`);
  return presentUser(user, urls);
}
