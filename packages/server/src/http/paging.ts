import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
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

function encodeCursor(values: Cursor): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** A cursor is trusted only when each value has its key's type: a forged one is a 400, never a 500. */
function decodeCursor(page: string, types: readonly string[]): Cursor {
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

/** `(k1, k2, …) > (v1, v2, …)` spelled out, since row-value comparison differs between dialects. */
function after(keys: readonly string[], values: Cursor): Expression<SqlBool> {
  const branches = keys.map((key, i) => {
    const equalities = keys.slice(0, i).map((prev, j) => sql`${sql.ref(prev)} = ${values[j]}`);
    return sql.join([...equalities, sql`${sql.ref(key)} > ${values[i]}`], sql` and `);
  });
  return sql<SqlBool>`(${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` or `,
  )})`;
}

/**
 * Keyset paging: `base` holds the filters, `keys` the ascending sort columns with their types (the
 * last one unique, and each selected by `base` under the same name). The cursor is the last row's keys, so a page
 * never scans skipped rows and rows inserted meanwhile neither shift nor repeat the next page.
 */
export async function keysetPage<DB, TB extends keyof DB, Row extends Record<string, unknown>>(
  base: SelectQueryBuilder<DB, TB, Row>,
  keyTypes: PageKeys<Row>,
  query: PageQuery,
): Promise<PageResult<Row>> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const keys = Object.keys(keyTypes);
  let pageQuery = base;
  if (query.page !== undefined)
    pageQuery = pageQuery.where(after(keys, decodeCursor(query.page, Object.values(keyTypes) as string[])));
  for (const key of keys) pageQuery = pageQuery.orderBy(sql.ref(key), "asc");

  const [rows, total] = await Promise.all([
    pageQuery.limit(limit + 1).execute(),
    base
      .clearSelect()
      .select(sql<number | string>`count(*)`.as("count"))
      .executeTakeFirstOrThrow() as Promise<{ count: number | string }>,
  ]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    rows: items,
    count: Number(total.count),
    ...(rows.length > limit && last
      ? { next: { page: encodeCursor(keys.map((k) => last[k] as string | number)) } }
      : {}),
  };
}

/** The contract's `Page<T>` from a page of rows. */
export function presentPage<Row, Item>(page: PageResult<Row>, present: (row: Row) => Item) {
  return { count: page.count, items: page.rows.map(present), ...(page.next && { next: page.next }) };
}
