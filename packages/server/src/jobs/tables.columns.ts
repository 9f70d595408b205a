import type { ColumnsOf } from "../db/columns.js";
import type { JobsTables } from "./tables.js";

/** Every column of the job tables with its nullability, checked by src/db/schema.test.ts. */
export const jobsColumns: ColumnsOf<JobsTables> = {
  jobs: {
    id: "not null",
    task: "not null",
    payload: "not null",
    run_at: "not null",
    interval_ms: "null",
    attempts: "not null",
    claimed_by: "null",
    last_error: "null",
    failed_at: "null",
    created_at: "not null",
  },
};
