/**
 * Row types of the background job tables, joined into `Database` (src/db/schema.ts). Booleans are
 * 0/1 integers and timestamps ISO 8601 text, as everywhere.
 */
export type JobsTables = Record<never, never>;
