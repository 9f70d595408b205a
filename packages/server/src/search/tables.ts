/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 * None yet: the area adds its tables here, and their columns in `tables.columns.ts`.
 */
export type SearchTables = Record<never, never>;
