import type { Selectable } from "kysely";

type Nullability<T> = null extends T ? "null" : "not null";

/**
 * Every column of every table of `Tables` with whether it holds null: a table or column missing or
 * extra, or a wrong nullability, does not compile. src/db/schema.test.ts compares it with the
 * tables the migrations build.
 */
export type ColumnsOf<Tables> = {
  [T in keyof Tables]: {
    [C in keyof Selectable<Tables[T]>]-?: Nullability<Selectable<Tables[T]>[C]>;
  };
};
