import {
  type CompiledQuery,
  type DatabaseConnection,
  PostgresDriver,
  SqliteAdapter,
  type TransactionSettings,
} from "kysely";
import type { Db } from "./database.js";

/**
 * PostgreSQL's transactions in fewer round trips. Quire's pg clients run in pipeline mode: a query
 * is written to the server at once, without waiting for the answers of those before it, which still
 * come back in order. The driver uses it twice:
 *
 * - BEGIN is written and not waited for, so it reaches PostgreSQL with the transaction's first
 *   statement, in one round trip;
 * - statements given to `runWithCommit` are written with the COMMIT, also in one round trip.
 *
 * Each query keeps its own Sync, so an error of one does not swallow the next: a failed statement
 * leaves the transaction aborted, and the COMMIT after it then rolls back (see `commitTransaction`).
 * BEGIN itself fails only with its connection, and then so does every statement written after it.
 */

/** Each transaction's BEGIN, until it is answered. */
const beginning = new WeakMap<DatabaseConnection, Promise<void>>();
/** Statements to send with a connection's next COMMIT. */
const withTheCommit = new WeakMap<DatabaseConnection, CompiledQuery[]>();

/**
 * Runs `query` as the last statement of the transaction `tx`. On PostgreSQL it is written with the
 * transaction's COMMIT, the two in one round trip: a row lock it takes is then held only while
 * PostgreSQL commits, not also while the answer travels back to the server and the server, busy with
 * other requests, gets round to sending the COMMIT. Its rows are never returned, and an error of its
 * fails the commit. Elsewhere (SQLite, or outside a transaction) it runs at once.
 */
export async function runWithCommit(tx: Db, query: CompiledQuery): Promise<void> {
  if (!tx.isTransaction || tx.getExecutor().adapter instanceof SqliteAdapter) {
    await tx.executeQuery(query);
    return;
  }
  await tx.getExecutor().provideConnection(async (connection) => {
    const queued = withTheCommit.get(connection);
    if (queued) queued.push(query);
    else withTheCommit.set(connection, [query]);
  });
}

/** PostgreSQL's driver, pipelining BEGIN and the statements sent with the COMMIT (above). */
export class PipeliningPostgresDriver extends PostgresDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    // Written now (pg writes a query as it is given one), answered with the first statement's round trip.
    const begun = super.beginTransaction(connection, settings);
    // Looked at when the transaction ends; until then its rejection is not unhandled.
    begun.catch(() => {});
    beginning.set(connection, begun);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const begun = beginning.get(connection);
    beginning.delete(connection);
    const queued = withTheCommit.get(connection) ?? [];
    withTheCommit.delete(connection);
    // All written before any answer; a statement's error (more telling than the COMMIT's rollback) first.
    const outcomes = await Promise.allSettled([
      begun,
      ...queued.map((query) => connection.executeQuery(query)),
      super.commitTransaction(connection),
    ]);
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
  }

  override async rollbackTransaction(
    connection: Parameters<PostgresDriver["rollbackTransaction"]>[0],
  ): Promise<void> {
    const begun = beginning.get(connection);
    beginning.delete(connection);
    withTheCommit.delete(connection);
    await begun?.catch(() => {});
    return super.rollbackTransaction(connection);
  }
}
