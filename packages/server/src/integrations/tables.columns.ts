import type { ColumnsOf } from "../db/columns.js";
import type { IntegrationsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const integrationsColumns: ColumnsOf<IntegrationsTables> = {};
