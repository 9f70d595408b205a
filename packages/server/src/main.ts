import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createApp } from "./app.js";
import { bootstrapOwner } from "./bootstrap.js";
import { configFromEnv, databaseForLog } from "./config.js";
import { systemClock, timeOrderedIds } from "./context.js";
import { migrate, openDatabase } from "./db/database.js";
import { purgeExpiredSpaces } from "./spaces/store.js";

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** How long requests in flight may take to finish on SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = configFromEnv();
const logger = pino({ level: config.logLevel });
const db = openDatabase({ location: config.database, logger });
await migrate(db);

const clock = systemClock;
const ids = timeOrderedIds(clock);
const purge = async () => {
  const removed = await purgeExpiredSpaces(db, clock.now());
  if (removed > 0) logger.info({ removed }, "removed spaces deleted more than 7 days ago");
};
await purge();
setInterval(() => purge().catch((err) => logger.error({ err }, "purge failed")), PURGE_INTERVAL_MS).unref();

const firstRun = await bootstrapOwner(db, { clock, ids }, config.ownerEmail);
const app = createApp({
  db,
  clock,
  ids,
  logger,
  publicUrl: config.publicUrl,
  validateResponses: config.validateResponses,
  secretKey: config.secretKey,
});

// Not app.listen: Express 5 passes a listen error to its callback, which would then report success.
const server = createServer(app);
server.once("error", async (err: NodeJS.ErrnoException) => {
  const reason =
    err.code === "EADDRINUSE"
      ? `port ${config.port} is already in use`
      : err.code === "EACCES"
        ? `no permission to listen on port ${config.port}`
        : err.message;
  logger.fatal({ err }, `Quire cannot start: ${reason}`);
  await db.destroy();
  process.exit(1);
});
server.once("listening", () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, database: databaseForLog(config.database) }, "Quire is listening");
  if (firstRun) {
    // Shown once: only the token's hash is stored.
    process.stdout.write(
      `\nFirst start: created ${firstRun.email} and organization ${firstRun.organizationId}. Try:\n\n` +
        `  curl -H 'Authorization: Bearer ${firstRun.token}' ${config.publicUrl}/v1/orgs\n\n`,
    );
  }
});
server.listen(config.port);

/** Stops taking connections, lets requests in flight finish within the grace time, closes the database. */
async function shutdown(signal: NodeJS.Signals) {
  logger.info({ signal }, "Quire is stopping");
  const closed = new Promise((resolve) => server.close(resolve));
  // close() drops only the connections idle at that moment; a keep-alive one turns idle when its
  // request is answered and would otherwise be kept open for keepAliveTimeout.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => {
    logger.warn(`cutting the connections still open after ${SHUTDOWN_GRACE_MS / 1000} s`);
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(cut);
  await db.destroy();
  logger.info("Quire stopped");
  // Explicit, so that a handle left open somewhere cannot keep a stopped server alive.
  process.exit(0);
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // Repeats are ignored, the stop being bounded anyway: Ctrl-C under `npm start` reaches the
    // server twice, once from the terminal and once forwarded by npm.
    if (stopping) return;
    stopping = true;
    void shutdown(signal);
  });
}
