import type { ColumnsOf } from "../db/columns.js";
import type { OpenApiSpecsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const openApiSpecsColumns: ColumnsOf<OpenApiSpecsTables> = {};
