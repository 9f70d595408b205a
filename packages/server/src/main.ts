import { pino } from "pino";
import { createApp } from "./app.js";
import { bootstrapOwner } from "./bootstrap.js";
import { configFromEnv } from "./config.js";
import { systemClock, timeOrderedIds } from "./context.js";
import { migrate, openDatabase } from "./db/database.js";
import { purgeExpiredSpaces } from "./spaces/store.js";

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

const config = configFromEnv();
const logger = pino({ level: config.logLevel });
const db = openDatabase({ location: config.database });
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
});
const server = app.listen(config.port, () => {
  logger.info({ port: config.port, database: config.database }, "Quire is listening");
  if (firstRun) {
    // Shown once: only the token's hash is stored.
    process.stdout.write(
      `\nFirst start: created ${firstRun.email} and organization ${firstRun.organizationId}. Try:\n\n` +
        `  curl -H 'Authorization: Bearer ${firstRun.token}' ${config.publicUrl}/v1/orgs\n\n`,
    );
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => void db.destroy());
  });
}
