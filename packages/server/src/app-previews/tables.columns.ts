import type { ColumnsOf } from "../db/columns.js";
import type { AppPreviewsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const appPreviewsColumns: ColumnsOf<AppPreviewsTables> = {
  app_sessions: {
    id_hash: "not null",
    user_id: "not null",
    token_id: "not null",
    created_at: "not null",
    expires_at: "not null",
    last_seen_at: "not null",
  },
};
