import {
  CompiledQuery,
  type DatabaseConnection,
  PostgresDriver,
  SqliteAdapter,
  type TransactionSettings,
} from "kysely";
import pg from "pg";
import { prepareValue } from "pg/lib/utils.js";
import type { Db } from "./database.js";

/**
 * PostgreSQL's transactions in fewer round trips. Quire's pg clients run in pipeline mode: a query
 * is written to the server at once, without waiting for the answers of those before it, which still
 * come back in order. The driver uses it twice:
 *
 * - BEGIN is written and not waited for, so it reaches PostgreSQL with the transaction's first
 *   statement, in one round trip;
 * - statements given to `runWithCommit` are written with the COMMIT, also in one round trip, and once
 *   prepared on the connection, in the same extended query as the COMMIT (`CommitWith`): PostgreSQL
 *   answers them all at once, and the server reads one answer instead of one per statement.
 *
 * BEGIN keeps its own Sync: it fails only with its connection, and then so does every statement
 * written after it. A statement sent with the COMMIT that fails leaves the transaction aborted: the
 * COMMIT after it is then skipped (in the same extended query) or rolls back (in a query of its own),
 * and the driver rolls the transaction back either way.
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
    // Written before any answer; BEGIN's error first, the cause of every other.
    await allOrFirstError([
      begun,
      queued.length > 0
        ? connection.executeQuery(CompiledQuery.raw(COMMIT_WITH, queued))
        : super.commitTransaction(connection),
    ]);
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

/**
 * The COMMIT of statements to run before it, given as its parameters: what the driver hands Quire's pg
 * client (`NamingClient` in database.ts, which calls `commitWith`) through Kysely's connection, which
 * passes a query's text and parameters on as they are.
 */
export const COMMIT_WITH = "commit -- with the statements given as its parameters";

/** A statement by the name it is prepared under on a connection (`NamingClient`), if any. */
export interface NamedStatement {
  name: string | undefined;
  text: string;
  values: readonly unknown[];
}

/** What pg's connection keeps of the statements prepared on it, and the messages used here. */
interface PgConnection {
  parsedStatements: Record<string, string>;
  parse(query: { name: string; text: string; types: unknown[] }): void;
  bind(config: { statement: string; values: unknown[]; valueMapper: typeof prepareValue }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * Runs `statements`, then COMMIT, on `client` (in a transaction): in one extended query when every
 * statement is prepared on the connection, so that PostgreSQL answers them all at once; otherwise
 * each statement as a query of its own (which prepares it), then the COMMIT. Resolves as a COMMIT
 * does; rejects with the first statement's error, the transaction then aborted or rolled back.
 */
export async function commitWith(
  client: pg.Client,
  statements: readonly NamedStatement[],
  run: (statement: NamedStatement) => Promise<unknown>,
): Promise<pg.QueryResult> {
  const connection = (client as unknown as { connection: PgConnection }).connection;
  if (statements.every(({ name, text }) => name !== undefined && connection.parsedStatements[name] === text))
    return new Promise((resolve, reject) => {
      client.query(new CommitWith(statements, resolve, reject));
    });
  const answers = await allOrFirstError([...statements.map(run), client.query("commit")]);
  return answers.at(-1) as pg.QueryResult;
}

/**
 * Waits for all of `answers`, queries written together, and throws the first one's error in the order
 * given (not of their arrival): the earliest is the cause of those after it.
 */
async function allOrFirstError(answers: readonly unknown[]): Promise<unknown[]> {
  const outcomes = await Promise.allSettled(answers);
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
}

/**
 * Prepared statements and a COMMIT in one extended query, ended by one Sync: PostgreSQL runs them in
 * order and sends their answers together once the COMMIT is flushed. One that fails makes PostgreSQL
 * skip the rest up to the Sync, the COMMIT with them. A pg `Query`, as pg's pipeline mode requires.
 */
class CommitWith extends pg.Query {
  readonly #statements: readonly NamedStatement[];
  readonly #committed: (result: pg.QueryResult) => void;
  readonly #failed: (err: Error) => void;
  #error: Error | undefined;

  constructor(
    statements: readonly NamedStatement[],
    committed: (result: pg.QueryResult) => void,
    failed: (err: Error) => void,
  ) {
    super("commit");
    this.#statements = statements;
    this.#committed = committed;
    this.#failed = failed;
  }

  override submit = (connection: pg.Connection): void => {
    const messages = connection as unknown as PgConnection;
    for (const { name, values } of this.#statements) {
      messages.bind({ statement: name as string, values: [...values], valueMapper: prepareValue });
      messages.execute({ portal: "", rows: 0 });
    }
    messages.parse({ name: "", text: "commit", types: [] });
    messages.bind({ statement: "", values: [], valueMapper: prepareValue });
    messages.execute({ portal: "", rows: 0 });
    messages.sync();
  };

  // The answers pg's client hands its active query: only the end, or an error, matters here (the
  // statements' rows are never returned, as `runWithCommit` says).
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleError(err: Error): void {
    this.#error = err;
    this.#failed(err);
  }
  handleReadyForQuery(): void {
    if (!this.#error) this.#committed({ command: "COMMIT", rowCount: null, oid: 0, rows: [], fields: [] });
  }
}
