/**
 * The statements run as named prepared statements on PostgreSQL (see `NamingClient` in database.ts):
 * those of `preparedRead` and `preparedWrite`, the hot paths, a set fixed by the code. Every other
 * statement stays unnamed, so that each connection holds a bounded number of prepared statements.
 */
const names = new Map<string, string>();

/** Registers `sql` to be prepared once per connection; idempotent. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `quire_${names.size}`);
}

/** The name `sql` runs under, if it was registered. */
export const statementName = (sql: string): string | undefined => names.get(sql);
