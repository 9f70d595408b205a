import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import { serverTasks } from "./areas.js";
import { resolveSecretKey } from "./auth/secret-key.js";
import { fileSettingsFrom } from "./blobs/settings.js";
import { bootstrapOwner } from "./bootstrap.js";
import { configFromEnv, databaseForLog } from "./config.js";
import { contentEngine, useContentLimits } from "./content/engine/index.js";
import { systemClock, timeOrderedIds } from "./context.js";
import { migrate, openDatabase } from "./db/database.js";
import { createJobRunner } from "./jobs/runner.js";
import { serverLogger } from "./logging.js";
import { createMailer, mailDestination } from "./mail/index.js";
import { gitSettingsFrom } from "./net/git.js";
import { urlsFor } from "./urls.js";

/** How long requests in flight may take to finish on SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = configFromEnv();
await useContentLimits(config.content);
// A newcomer's terminal shows lines to read; a pipe or a file (and production) gets JSON lines.
const logger = serverLogger(config.logLevel, 1, {
  readable: config.readableLogs && process.stdout.isTTY === true,
});
const db = openDatabase({ location: config.database, logger, synchronous: config.sqliteSynchronous });
await migrate(db);
const secretKey = await resolveSecretKey({
  configured: config.secretKey,
  db,
  location: config.database,
  logger,
});

const mailer = createMailer(config.mail, logger);
if (!config.mail.smtpUrl && process.env.NODE_ENV === "production")
  logger.warn(
    "QUIRE_SMTP_URL is not set: no mail can be sent (invitations, sign-in links, password resets); they are only written to the log",
  );

const clock = systemClock;
const ids = timeOrderedIds(clock);
// Background work, the purge of deleted spaces included, shared with every other server process.
const files = fileSettingsFrom(config.files);
const git = gitSettingsFrom(config.git, config.network);
const jobs = createJobRunner({
  db,
  clock,
  ids,
  logger,
  leaseMs: config.jobLeaseMs,
  tasks: serverTasks({
    network: config.network,
    git,
    secretKey,
    blobs: files.blobs,
    eventDelivery: config.eventDelivery,
    publicUrl: config.publicUrl,
  }),
});
jobs.start();

const firstRun = await bootstrapOwner(db, { clock, ids, urls: urlsFor(config.publicUrl) }, config.ownerEmail);
const app = createApp({
  db,
  clock,
  ids,
  logger,
  publicUrl: config.publicUrl,
  validateResponses: config.validateResponses,
  secretKey,
  files,
  git,
  eventDelivery: config.eventDelivery,
  network: config.network,
  mailer,
  ...(config.rateLimitPerMinute > 0 && { rateLimit: { limit: config.rateLimitPerMinute, windowMs: 60_000 } }),
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
  logger.flush();
  await jobs.stop();
  await db.destroy();
  process.exit(1);
});
server.once("listening", () => {
  const { port } = server.address() as AddressInfo;
  logger.info(
    { port, database: databaseForLog(config.database), mail: mailDestination(config.mail) },
    "Quire is listening",
  );
  logger.flush();
  if (firstRun) {
    // Shown once: only the token's hash is stored.
    process.stdout.write(
      `\nFirst start: created ${firstRun.email} and organization ${firstRun.organizationId}. Try:\n\n` +
        `  curl -H 'Authorization: Bearer ${firstRun.token}' ${config.publicUrl}/v1/orgs\n\n` +
        // Once, within a day: it opens the app signed in as the owner.
        `Sign in: ${firstRun.signInUrl}\n\n`,
    );
  }
});
server.listen(config.port);

/**
 * Stops taking connections and jobs, lets requests in flight and jobs running finish within the grace
 * time (jobs are told to stop, and those that do go back to the queue), closes the database.
 */
async function shutdown(signal: NodeJS.Signals) {
  logger.info({ signal }, "Quire is stopping");
  logger.flush();
  const closed = new Promise((resolve) => server.close(resolve));
  // close() drops only the connections idle at that moment; a keep-alive one turns idle when its
  // request is answered and would otherwise be kept open for keepAliveTimeout.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => {
    logger.warn(`cutting the connections still open after ${SHUTDOWN_GRACE_MS / 1000} s`);
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  await Promise.all([closed, jobs.stop(SHUTDOWN_GRACE_MS)]);
  clearInterval(sweep);
  clearTimeout(cut);
  // Once requests and jobs are done, none is sending mail.
  mailer.close();
  await Promise.all([db.destroy(), contentEngine().close()]);
  logger.info("Quire stopped");
  // Explicit, so that a handle left open somewhere cannot keep a stopped server alive; the last
  // lines written first.
  logger.flush(() => process.exit(0));
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
