import type { ColumnsOf } from "../db/columns.js";
import type { JobsTables } from "./tables.js";

/** Every column of the job tables with its nullability, checked by src/db/schema.test.ts. */
export const jobsColumns: ColumnsOf<JobsTables> = {};
