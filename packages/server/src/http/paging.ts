import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../db/database.js";
import { type PreparedArguments, preparedRead } from "../db/prepared.js";
import { badRequest } from "./errors.js";

export interface PageQuery {
  page?: string;
  limit?: number;
}

export interface PageResult<Row> {
  rows: Row[];
  count: number;
  next?: { page: string };
}

export const DEFAULT_PAGE_SIZE = 50;

type Cursor = Array<string | number>;

/** The sort keys of a page, in order, each with the type of its column. */
export type PageKeys<Row> = { [K in keyof Row & string]?: "string" | "number" };

/** The opaque `next.page` of a page whose last row has these sort keys. */
export function encodeCursor(values: Cursor): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/**
 * The sort keys of a `next.page`, for listings that page by hand (one statement `keysetList` cannot
 * build). A cursor is trusted only when each value has its key's type: a forged one is a 400, never
 * a 500.
 */
export function decodeCursor(page: string, types: readonly string[]): Cursor {
  try {
    const values: unknown = JSON.parse(Buffer.from(page, "base64url").toString("utf8"));
    if (
      Array.isArray(values) &&
      values.length === types.length &&
      values.every((v, i) => typeof v === types[i] && (typeof v !== "number" || Number.isSafeInteger(v)))
    ) {
      return values as Cursor;
    }
  } catch {
    // fall through: any undecodable cursor is the caller's mistake
  }
  throw badRequest("The page cursor is invalid; pass the `next.page` value of a previous response.");
}

/**
 * `(k1, k2, …) > (v1, v2, …)` (`<` when descending) spelled out, since row-value comparison differs
 * between dialects.
 */
function after(
  keys: readonly string[],
  values: readonly unknown[],
  descending: boolean,
): Expression<SqlBool> {
  const beyond = descending ? sql`<` : sql`>`;
  const branches = keys.map((key, i) => {
    const equalities = keys.slice(0, i).map((prev, j) => sql`${sql.ref(prev)} = ${values[j]}`);
    return sql.join([...equalities, sql`${sql.ref(key)} ${beyond} ${values[i]}`], sql` and `);
  });
  return sql<SqlBool>`(${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` or `,
  )})`;
}

// biome-ignore lint/suspicious/noExplicitAny: any table of the schema
type Listing<Row> = SelectQueryBuilder<any, any, Row>;

const PAGE_TOTAL = "page_total";

/**
 * Keyset paging over the rows `build` selects (the filters), sorted by `keys` ascending, or all
 * descending with `descending` (the last one unique, each selected under its own name). The cursor is the last row's keys, so a page never
 * scans skipped rows, and rows inserted meanwhile neither shift nor repeat the next page.
 *
 * One statement per page: the rows and, as a column, the count of every match; both shapes (first
 * page, later page) are prepared once. Only an empty page asks for the count on its own.
 */
export function keysetList<A extends PreparedArguments, Row extends Record<string, unknown>>(
  build: (db: Db, args: A) => Listing<Row>,
  keyTypes: PageKeys<Row>,
  { descending = false }: { descending?: boolean } = {},
) {
  const keys = Object.keys(keyTypes);
  const types = Object.values(keyTypes) as string[];
  const cursorArgs = keys.map((_, i) => `cursor${i}`);
  const page = (base: Listing<Row>, limit: unknown, cursor?: readonly unknown[]) => {
    let query = base.select(() =>
      base.clearSelect().select(sql<number | string>`count(*)`.as("n")).as(PAGE_TOTAL),
    );
    if (cursor) query = query.where(after(keys, cursor, descending));
    for (const key of keys) query = query.orderBy(sql.ref(key), descending ? "desc" : "asc");
    return query.limit(limit as number);
  };
  type PageArgs = A & { limit: number } & Record<string, string | number>;
  const firstPage = preparedRead((db, args: PageArgs) => page(build(db, args), args.limit));
  const laterPage = preparedRead((db, args: PageArgs) =>
    page(
      build(db, args),
      args.limit,
      cursorArgs.map((name) => args[name]),
    ),
  );
  const countOnly = preparedRead((db, args: A) =>
    build(db, args).clearSelect().select(sql<number | string>`count(*)`.as("n")),
  );

  return async (db: Db, args: A, query: PageQuery): Promise<PageResult<Row>> => {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const pageArgs = { ...args, limit: limit + 1 } as PageArgs;
    let found: (Row & { [PAGE_TOTAL]: number | string })[];
    if (query.page === undefined) {
      found = (await firstPage(db, pageArgs)) as typeof found;
    } else {
      const cursor = decodeCursor(query.page, types);
      for (const [i, name] of cursorArgs.entries()) (pageArgs as Record<string, unknown>)[name] = cursor[i];
      found = (await laterPage(db, pageArgs)) as typeof found;
    }
    const count = found[0]
      ? Number(found[0][PAGE_TOTAL])
      : Number(((await countOnly(db, args))[0] as { n?: number | string } | undefined)?.n ?? 0);
    // The rows keep their `page_total` column: presenters pick what they show, and copying every
    // row only to drop it cost as much as the statement.
    const rows: Row[] = found.slice(0, limit);
    const last = rows.at(-1);
    return {
      rows,
      count,
      ...(found.length > limit && last
        ? { next: { page: encodeCursor(keys.map((k) => last[k] as string | number)) } }
        : {}),
    };
  };
}

/** The contract's `Page<T>` from a page of rows. */
export function presentPage<Row, Item>(page: PageResult<Row>, present: (row: Row) => Item) {
  return { count: page.count, items: page.rows.map(present), ...(page.next && { next: page.next }) };
}
