import type { UserTable } from "../db/schema.js";

/** Who is calling: a user, through one of their API tokens or their browser's session. */
export interface Caller {
  user: UserTable;
  /** Id of the API token (`api_tokens.id`), which audit events name; absent for a session. */
  tokenId?: string;
  /** Id of the session (`sessions.id`), when the call came from a signed-in browser. */
  sessionId?: string;
  /**
   * An organization of theirs requires a second factor they have not added: the API lets them do
   * little else (see `OPEN_WITHOUT_REQUIRED_FACTOR`).
   */
  lacksRequiredFactor?: boolean;
}
