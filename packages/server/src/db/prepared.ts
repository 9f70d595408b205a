import { type Compilable, type CompiledQuery, PostgresAdapter } from "kysely";
import { type Db, sqliteReaderOf } from "./database.js";
import { nameStatement } from "./statement-names.js";

/** The values a prepared read takes, by name. */
export type PreparedArguments = Record<string, string | number | null>;

const PLACEHOLDER = "\u0000quire-argument:";

interface Prepared<Row, A> {
  query: CompiledQuery<Row>;
  /** For each parameter of the compiled query: the argument it comes from, or its constant value. */
  parameters: ((args: A) => unknown)[];
}

/** Compiles `build` once with placeholders, and maps each placeholder back to its argument. */
function prepare<A extends PreparedArguments, Row>(
  db: Db,
  build: (db: Db, args: A) => Compilable<Row>,
): Prepared<Row, A> {
  const placeholders = new Proxy({}, { get: (_target, name) => `${PLACEHOLDER}${String(name)}` }) as A;
  const query = build(db, placeholders).compile();
  if (db.getExecutor().adapter instanceof PostgresAdapter) nameStatement(query.sql);
  return {
    query,
    parameters: query.parameters.map((value) =>
      typeof value === "string" && value.startsWith(PLACEHOLDER)
        ? (args: A) => args[value.slice(PLACEHOLDER.length)]
        : () => value,
    ),
  };
}

const argumentsOf = <Row, A>(prepared: Prepared<Row, A>, args: A) =>
  prepared.parameters.map((parameter) => parameter(args));

/**
 * A read on a hot path, built and compiled by Kysely once per database and then run with new
 * arguments: building and compiling cost as much as running the statement. `build` receives
 * placeholders for the arguments, so each argument must be used as a plain value (not in a list).
 * On SQLite the statement runs on the read-only connection (see `sqliteReaderOf`); in a
 * transaction, or on PostgreSQL, through Kysely, where it is a named prepared statement, parsed and
 * planned once per connection (`statement-names.ts`).
 */
export function preparedRead<A extends PreparedArguments, Row>(build: (db: Db, args: A) => Compilable<Row>) {
  const compiled = new WeakMap<Db, Prepared<Row, A>>();
  return async (db: Db, args: A): Promise<Row[]> => {
    let prepared = compiled.get(db);
    if (!prepared) {
      prepared = prepare(db, build);
      compiled.set(db, prepared);
    }
    const reader = sqliteReaderOf(db);
    if (reader) return reader.prepare(prepared.query.sql).all(argumentsOf(prepared, args)) as Row[];
    return (await db.executeQuery<Row>({ ...prepared.query, parameters: argumentsOf(prepared, args) })).rows;
  };
}

/**
 * A write on a hot path, as `preparedRead` compiled once, but once per SQL dialect rather than per
 * database: it runs in whichever transaction it is given (each a Kysely instance of its own), on the
 * connection of that transaction.
 */
export function preparedWrite<A extends PreparedArguments, Row>(build: (db: Db, args: A) => Compilable<Row>) {
  const compile = compiledWrite(build);
  return async (db: Db, args: A): Promise<Row[]> => (await db.executeQuery<Row>(compile(db, args))).rows;
}

/** A write as `preparedWrite` compiles it, for whoever runs it (`runWithCommit`). */
export function compiledWrite<A extends PreparedArguments, Row>(build: (db: Db, args: A) => Compilable<Row>) {
  const compiled = new Map<string, Prepared<Row, A>>();
  return (db: Db, args: A): CompiledQuery<Row> => {
    const dialect = db.getExecutor().adapter.constructor.name;
    let prepared = compiled.get(dialect);
    if (!prepared) {
      prepared = prepare(db, build);
      compiled.set(dialect, prepared);
    }
    return { ...prepared.query, parameters: argumentsOf(prepared, args) };
  };
}
