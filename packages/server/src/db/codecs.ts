/**
 * How values are held in columns, the same on SQLite and PostgreSQL (see `Database` in schema.ts):
 * the one place that converts them, so that no store, presenter or handler does by hand.
 */

/**
 * A boolean column: 0 or 1 in an `integer` column, which both databases return as a number (a
 * PostgreSQL `bigint` would come back as a string, so flags are never one).
 */
export type Flag = 0 | 1;

export const flag = (value: boolean): Flag => (value ? 1 : 0);

export const isSet = (value: Flag): boolean => value === 1;

declare const holds: unique symbol;

/**
 * The text of a JSON column holding a `T`. Only `toJson` makes one, so that the row type says what
 * the column holds and `fromJson` gives it back typed.
 */
export type JsonText<T> = string & { readonly [holds]: T };

export const toJson = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

export const fromJson = <T>(text: JsonText<T>): T => JSON.parse(text) as T;

/** A timestamp column's text: ISO 8601 in UTC, `laterByMs` after `date` (before it when negative). */
export const timestamp = (date: Date, laterByMs = 0): string =>
  new Date(date.getTime() + laterByMs).toISOString();
