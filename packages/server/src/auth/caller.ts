import type { UserTable } from "../db/schema.js";

/** Who is calling: the user the bearer token belongs to. */
export interface Caller {
  user: UserTable;
}
