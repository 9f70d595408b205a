import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { generateSecretKey } from "../auth/secret-key.js";

/**
 * The servers the benchmark measures, each run in a child process of its own so that the load
 * generator does not share their event loop. The child reads its target as JSON on stdin, writes
 * its port as a JSON line on stdout, then a line with its resident memory on each SIGUSR2. Each
 * target imports only what it runs, so that the memory figures compare the servers and not the
 * modules loaded beside them.
 *
 * No IPC channel, as in production: in a child forked with one, Quire answered 9–27% fewer
 * requests (its `process.nextTick` took 4.3% of the samples instead of 0.8%), while Express and
 * node:http, and a small server with Quire's async shape, answered as many. We did not find why.
 */
export type Target =
  | {
      kind: "quire";
      database: string;
      validateResponses: boolean;
      /** Listens with SO_REUSEPORT on this port (0: any), which other processes may then share. */
      sharedPort?: number;
      /** The file its request log is written to (the server's own time of each answer); /dev/null by default. */
      log?: string;
    }
  | { kind: "raw" | "express"; responses: Record<string, unknown> }
  | { kind: "postgres"; driver: PostgresDriver; database: string; routes: Record<string, ReplayedRoute> };

/** The PostgreSQL ceiling's drivers: Quire's own (`pg`, as Quire sets it up) and `postgres`. */
export type PostgresDriver = "pg" | "postgres";

/** A statement as Quire sent it. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

/** What Quire does for a URL on PostgreSQL: the statements it runs, and the JSON it answers. */
export interface ReplayedRoute {
  statements: Statement[];
  response: unknown;
}

export type TargetReply = { port: number } | { rss: number };

async function handler(target: Target): Promise<RequestListener> {
  switch (target.kind) {
    case "quire": {
      const [{ serverLogger }, { createApp }, { migrate, openDatabase }, { parseAddressList }] =
        await Promise.all([
          import("../logging.js"),
          import("../app.js"),
          import("../db/database.js"),
          import("../net/fetch.js"),
        ]);
      const db = openDatabase({ location: target.database });
      await migrate(db);
      // Request logs written as in production, so that their cost is counted.
      const logger = serverLogger("info", target.log ?? "/dev/null");
      return createApp({
        db,
        logger,
        validateResponses: target.validateResponses,
        secretKey: generateSecretKey(),
        // As in production, URLs given by users reach private addresses only if the environment says so.
        network: { allowedPrivateAddresses: parseAddressList(process.env.QUIRE_FETCH_ALLOW_PRIVATE ?? "") },
      });
    }
    case "express": {
      // The same JSON Quire answers, from memory: the ceiling for an Express server on this machine.
      const { default: express } = await import("express");
      const app = express();
      app.get("/{*path}", (req, res) => {
        const response = target.responses[req.originalUrl];
        // A page's HTML is sent as HTML, as Quire sends it; the rest as JSON.
        if (typeof response === "string") res.type("html").send(response);
        else res.json(response);
      });
      return app;
    }
    case "postgres": {
      // The ceiling for Quire on PostgreSQL: node:http running the statements Quire runs for the URL
      // (one, for the bench's URLs), one after the other, then sending the JSON Quire answers.
      const run = await statementRunner(target.driver, target.database);
      return (req, res) => {
        const route = target.routes[req.url ?? ""];
        if (!route) {
          res.writeHead(404).end();
          return;
        }
        (async () => {
          for (const { sql, parameters } of route.statements) await run(sql, parameters);
          const body = JSON.stringify(route.response);
          res.writeHead(200, {
            "content-type": "application/json; charset=utf-8",
            "content-length": Buffer.byteLength(body),
          });
          res.end(body);
        })().catch(() => res.writeHead(500).end());
      };
    }
    case "raw":
      // And the ceiling for Node itself.
      return (req, res) => {
        const response = target.responses[req.url ?? ""];
        const html = typeof response === "string";
        const body = html ? response : JSON.stringify(response);
        res.writeHead(200, {
          "content-type": html ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
        });
        res.end(body);
      };
  }
}

/** Runs a statement with `driver`, connected to `database` as Quire connects (`openDatabase`). */
async function statementRunner(
  driver: PostgresDriver,
  database: string,
): Promise<(sql: string, parameters: unknown[]) => Promise<unknown>> {
  const { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } = await import("../db/database.js");
  if (driver === "pg") {
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({
      connectionString: database,
      connectionTimeoutMillis: DEFAULT_CONNECT_TIMEOUT_MS,
      statement_timeout: DEFAULT_STATEMENT_TIMEOUT_MS,
    });
    // As Kysely runs a statement: a client taken from the pool, the query, the client given back.
    return async (sql, parameters) => {
      const client = await pool.connect();
      try {
        return (await client.query(sql, parameters)).rows;
      } finally {
        client.release();
      }
    };
  }
  const { default: postgres } = await import("postgres");
  // Its defaults: 10 connections as pg's pool, statements prepared (named) once per connection.
  const sql = postgres(database, {
    connect_timeout: DEFAULT_CONNECT_TIMEOUT_MS / 1000,
    connection: { statement_timeout: DEFAULT_STATEMENT_TIMEOUT_MS },
    onnotice: () => {},
  });
  return (text, parameters) => sql.unsafe(text, parameters as never[], { prepare: true });
}

const reply = (message: TargetReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

let input = "";
for await (const chunk of process.stdin) input += chunk;
const target = JSON.parse(input) as Target;
const server = createServer(await handler(target));
process.on("SIGUSR2", () => reply({ rss: process.memoryUsage().rss }));
const sharedPort = target.kind === "quire" ? target.sharedPort : undefined;
server.listen({ port: sharedPort ?? 0, host: "127.0.0.1", reusePort: sharedPort !== undefined }, () =>
  reply({ port: (server.address() as AddressInfo).port }),
);
