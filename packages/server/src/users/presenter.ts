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
