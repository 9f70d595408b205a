import type { UserTable } from "../db/schema.js";

/** Who is calling: the user the bearer token belongs to, and which of their tokens it is. */
export interface Caller {
  user: UserTable;
  /** Id of the API token (`api_tokens.id`), which audit events name. */
  tokenId: string;
}
