import {
  type CompiledQuery as Compiled,
  CompiledQuery,
  type DatabaseConnection,
  PostgresDriver,
  SqliteAdapter,
} from "kysely";
import pg from "pg";
import type { Db } from "./database.js";

/** Statements to send with a connection's next COMMIT, as `execute` of their prepared form. */
const withTheCommit = new WeakMap<DatabaseConnection, string[]>();
/** The statements prepared on each connection (PostgreSQL keeps them, rolled back or not). */
const preparedOn = new WeakMap<DatabaseConnection, Set<string>>();

/**
 * Runs `query` as the last statement of the transaction `tx`. On PostgreSQL it is sent with the
 * transaction's COMMIT, the two in one round trip: a row lock it takes is then held only while
 * PostgreSQL commits, not also while the answer travels back to the server and the server, busy with
 * other requests, gets round to sending the COMMIT. It is prepared once per connection under `name`
 * (one name for one statement's text), so PostgreSQL plans it once. Its rows are never returned, and
 * an error of its fails the commit. Elsewhere (SQLite, or outside a transaction) it runs at once.
 */
export async function runWithCommit(tx: Db, name: string, query: Compiled): Promise<void> {
  if (!tx.isTransaction || tx.getExecutor().adapter instanceof SqliteAdapter) {
    await tx.executeQuery(query);
    return;
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a statement name: ${name}`);
  // The simple protocol, which alone runs several statements in one message, takes no parameters.
  const execute = `execute ${name} (${query.parameters.map(literal).join(", ")})`;
  await tx.getExecutor().provideConnection(async (connection) => {
    let prepared = preparedOn.get(connection);
    if (!prepared) {
      prepared = new Set();
      preparedOn.set(connection, prepared);
    }
    if (!prepared.has(name)) {
      await connection.executeQuery(CompiledQuery.raw(`prepare ${name} as ${query.sql}`));
      prepared.add(name);
    }
    const queued = withTheCommit.get(connection);
    if (queued) queued.push(execute);
    else withTheCommit.set(connection, [execute]);
  });
}

/** PostgreSQL's driver, sending what `runWithCommit` queued with the COMMIT. */
export class CommitPipeliningPostgresDriver extends PostgresDriver {
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const queued = withTheCommit.get(connection);
    if (!queued) return super.commitTransaction(connection);
    withTheCommit.delete(connection);
    // One message: if a statement fails, PostgreSQL runs none after it, COMMIT included, and the
    // transaction is rolled back by the caller.
    await connection.executeQuery(CompiledQuery.raw(`${queued.join(";\n")};\ncommit`));
  }

  override async rollbackTransaction(
    connection: Parameters<PostgresDriver["rollbackTransaction"]>[0],
  ): Promise<void> {
    withTheCommit.delete(connection);
    return super.rollbackTransaction(connection);
  }
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  throw new Error(`A ${typeof value} cannot be sent with the commit`);
}
