import type SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  type SqliteDatabase,
} from "kysely";

/**
 * How many transactions one commit may carry at most: past it, the transaction that fills the batch
 * commits it at once, so a burst of writers does not hold the first one's answer back for long.
 */
export const GROUP_COMMIT_LIMIT = 32;

/** The savepoint each transaction of a batch runs in: one at a time, so one name serves them all. */
const MEMBER = "quire_group_member";

/**
 * Takes turns on the one writer connection itself (see `GroupCommitSqliteDriver`), so Kysely must
 * not add its own lock around each use.
 */
export class GroupCommitSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * SQLite's writer connection with group commit. A commit writes every page its transaction changed
 * to the log, and most of a small transaction's cost is that write: an event's row and its five
 * index entries are six pages, which the next event of the organization changes again. So the
 * transactions that end within one turn of the event loop run one after another inside one SQLite
 * transaction, each in a savepoint of its own, and are committed together at the end of the turn
 * (or when `GROUP_COMMIT_LIMIT` of them wait): a page changed by several is written once.
 *
 * What each caller sees is unchanged: a transaction's `execute` resolves only once the commit that
 * carries it is done, so nothing is acknowledged before it is in the database; one rolled back undoes
 * its savepoint only; a statement outside a transaction first commits the batch, so it never reads
 * what is not yet committed. What changes: if the commit itself fails (a full disk, an I/O error),
 * every transaction of the batch fails with it.
 */
export class GroupCommitSqliteDriver implements Driver {
  readonly #statements: SqliteDatabase;
  readonly #sqlite: SQLite.Database;
  readonly #turns = new Turns();
  #batch: Batch | undefined;

  /** `statements` prepares (and caches) the statements run on `sqlite`, the writer connection. */
  constructor(statements: SqliteDatabase, sqlite: SQLite.Database) {
    this.#statements = statements;
    this.#sqlite = sqlite;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turns.take();
    return new Turn(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn;
    if (!this.#batch) {
      this.#run("begin");
      this.#batch = new Batch();
    }
    this.#run(`savepoint ${MEMBER}`);
    turn.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn;
    const batch = this.#batch as Batch;
    this.#run(`release ${MEMBER}`);
    turn.inTransaction = false;
    batch.members++;
    if (batch.members >= GROUP_COMMIT_LIMIT) this.#commitBatch();
    else if (!batch.scheduled) {
      batch.scheduled = true;
      setImmediate(() => this.#commitInTurn(batch));
    }
    // The connection is free for the next transaction of the batch; this one waits for the commit.
    this.#endTurn(turn);
    return batch.committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const turn = connection as Turn;
    // After a failed commit Kysely rolls back what it already handed over: the batch did.
    if (!turn.inTransaction) return;
    turn.inTransaction = false;
    const batch = this.#batch as Batch;
    if (!this.#sqlite.inTransaction) {
      // SQLite rolled the whole transaction back itself (a full disk, an I/O error): the batch too.
      this.#batch = undefined;
      batch.fail(new Error("SQLite rolled back the transaction these were committed with"));
      return;
    }
    this.#run(`rollback to ${MEMBER}`);
    this.#run(`release ${MEMBER}`);
    if (batch.members === 0) {
      this.#run("rollback");
      this.#batch = undefined;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#endTurn(connection as Turn);
  }

  async destroy(): Promise<void> {
    await this.#turns.take(true);
    if (this.#batch) this.#commitBatch();
    this.#statements.close();
  }

  /** Runs a statement for `turn`, which holds the connection. */
  execute<R>(turn: Turn, query: CompiledQuery): QueryResult<R> {
    this.#commitBeforeAlone(turn);
    const statement = this.#statements.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return {
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      numAffectedRows: changes != null ? BigInt(changes) : undefined,
      rows: [],
    };
  }

  *stream<R>(turn: Turn, query: CompiledQuery): Generator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error("SQLite streams the rows of select queries only");
    this.#commitBeforeAlone(turn);
    for (const row of this.#statements.prepare(query.sql).iterate(query.parameters))
      yield { rows: [row as R] };
  }

  /** A statement outside any transaction reads and writes only what is committed: the batch first. */
  #commitBeforeAlone(turn: Turn): void {
    if (!turn.inTransaction && this.#batch) this.#commitBatch();
  }

  #run(statement: string): void {
    this.#statements.prepare(statement).run([]);
  }

  #endTurn(turn: Turn): void {
    if (!turn.holding) return;
    turn.holding = false;
    this.#turns.pass();
  }

  /** Commits `batch` as soon as no transaction is half done, before anyone else takes a turn. */
  async #commitInTurn(batch: Batch): Promise<void> {
    await this.#turns.take(true);
    try {
      if (this.#batch === batch) this.#commitBatch();
    } finally {
      this.#turns.pass();
    }
  }

  /** Commits the open batch; the caller holds the connection. */
  #commitBatch(): void {
    const batch = this.#batch as Batch;
    this.#batch = undefined;
    try {
      this.#run("commit");
    } catch (err) {
      if (this.#sqlite.inTransaction) this.#run("rollback");
      batch.fail(err);
      return;
    }
    batch.succeed();
  }
}

/** One use of the connection, from `acquireConnection` to `releaseConnection`. */
class Turn implements DatabaseConnection {
  readonly #driver: GroupCommitSqliteDriver;
  /** Whether this use holds the connection: a committed transaction gives it up before its end. */
  holding = true;
  /** Whether a transaction of this use is open (in its savepoint). */
  inTransaction = false;

  constructor(driver: GroupCommitSqliteDriver) {
    this.#driver = driver;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#driver.execute<R>(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.#driver.stream<R>(this, query);
  }
}

/** The transactions one commit will carry, and their wait for it. */
class Batch {
  members = 0;
  scheduled = false;
  readonly committed: Promise<void>;
  succeed!: () => void;
  fail!: (err: unknown) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.succeed = resolve;
      this.fail = reject;
    });
    // A batch may fail with no member waiting yet (its first transaction's own rollback).
    this.committed.catch(() => {});
  }
}

/** Turns on the connection, in order of asking; a commit goes before those waiting. */
class Turns {
  #taken = false;
  readonly #waiting: (() => void)[] = [];

  take(first = false): Promise<void> {
    if (!this.#taken) {
      this.#taken = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      if (first) this.#waiting.unshift(resolve);
      else this.#waiting.push(resolve);
    });
  }

  pass(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#taken = false;
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
