import type { ColumnsOf } from "../db/columns.js";
import type { SearchTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const searchColumns: ColumnsOf<SearchTables> = {};
