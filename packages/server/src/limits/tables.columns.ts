import type { ColumnsOf } from "../db/columns.js";
import type { LimitsTables } from "./tables.js";

/** Every column of the request limits' tables with its nullability, checked by src/db/schema.test.ts. */
export const limitsColumns: ColumnsOf<LimitsTables> = {
  rate_limit_windows: { token_hash: "not null", window_number: "not null", count: "not null" },
};
