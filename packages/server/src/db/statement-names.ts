/**
 * The statements run as named prepared statements on PostgreSQL (see `NamingClient` in database.ts),
 * which PostgreSQL parses once per connection and, after five runs, may plan once: those of
 * `preparedRead` and `preparedWrite`, registered up front, and any other statement that reads or
 * writes rows once it has run NAMED_AFTER times, as long as fewer than MAX_NAMES are named, so that
 * each connection holds a bounded number of prepared statements. A space's rename through the API,
 * whose UPDATE (of the columns the request changes) PostgreSQL had parsed, analysed and planned on
 * every run, so took less of PostgreSQL's CPU: 350–383 µs before, 283–297 after (1,000 a second).
 */
const names = new Map<string, string>();
/** Runs of the statements not named yet, forgotten all at once past MAX_COUNTED. */
const runs = new Map<string, number>();

/** As pgjdbc's `prepareThreshold`: a statement run this often is likely to run again. */
export const NAMED_AFTER = 5;
/** Named statements in all, registered ones included; each connection prepares those it runs. */
export const MAX_NAMES = 256;
const MAX_COUNTED = 4096;
/** What PostgreSQL can prepare and plan: a statement that reads or writes rows, not a command. */
const ROWS_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/** Registers `sql` to be prepared once per connection; idempotent. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `quire_${names.size}`);
}

/**
 * The name `sql` runs under, if it has one: registered, or given now that it has run NAMED_AFTER
 * times. Called once for each run of a statement, which it counts.
 */
export function nameForRun(sql: string): string | undefined {
  const name = names.get(sql);
  if (name !== undefined || names.size >= MAX_NAMES || !ROWS_STATEMENT.test(sql)) return name;
  const count = (runs.get(sql) ?? 0) + 1;
  if (count < NAMED_AFTER) {
    if (runs.size >= MAX_COUNTED) runs.clear();
    runs.set(sql, count);
    return undefined;
  }
  runs.delete(sql);
  nameStatement(sql);
  return names.get(sql);
}
