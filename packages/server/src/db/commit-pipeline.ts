import {
  type CompiledQuery as Compiled,
  CompiledQuery,
  type DatabaseConnection,
  PostgresDriver,
  SqliteAdapter,
} from "kysely";
import pg from "pg";
import type { Db } from "./database.js";

/** Statements to send with a connection's next COMMIT, their parameters written in. */
const withTheCommit = new WeakMap<DatabaseConnection, string[]>();

/**
 * Runs `query` as the last statement of the transaction `tx`. On PostgreSQL it is sent with the
 * transaction's COMMIT, the two in one round trip: a row lock it takes is then held only while
 * PostgreSQL commits, not also while the answer travels back to the server and the server, busy with
 * other requests, gets round to sending the COMMIT. Its rows are never returned, and an error of its
 * fails the commit. Elsewhere (SQLite, or outside a transaction) it runs at once.
 */
export async function runWithCommit(tx: Db, query: Compiled): Promise<void> {
  if (!tx.isTransaction || tx.getExecutor().adapter instanceof SqliteAdapter) {
    await tx.executeQuery(query);
    return;
  }
  const statement = inlined(query);
  await tx.getExecutor().provideConnection(async (connection) => {
    const queued = withTheCommit.get(connection);
    if (queued) queued.push(statement);
    else withTheCommit.set(connection, [statement]);
  });
}

/** PostgreSQL's driver, sending what `runWithCommit` queued with the COMMIT. */
export class CommitPipeliningPostgresDriver extends PostgresDriver {
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const queued = withTheCommit.get(connection);
    if (!queued) return super.commitTransaction(connection);
    withTheCommit.delete(connection);
    // One simple-protocol message: if a statement fails, PostgreSQL runs none after it, COMMIT
    // included, and the transaction is rolled back by the caller.
    await connection.executeQuery(CompiledQuery.raw(`${queued.join(";\n")};\ncommit`));
  }

  override async rollbackTransaction(
    connection: Parameters<PostgresDriver["rollbackTransaction"]>[0],
  ): Promise<void> {
    withTheCommit.delete(connection);
    return super.rollbackTransaction(connection);
  }
}

/**
 * The statement with its parameters written in as literals: the simple protocol, which alone runs
 * several statements in one message, takes none. Only for statements of our own whose text holds no
 * quoted part, where every `$n` is a parameter.
 */
function inlined({ sql, parameters }: Compiled): string {
  if (/['"]/.test(sql)) throw new Error("A statement sent with the commit cannot hold quoted text");
  return sql.replace(/\$(\d+)/g, (_, index: string) => literal(parameters[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  throw new Error(`A ${typeof value} cannot be sent with the commit`);
}
