import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import express from "express";
import { type Logger, pino } from "pino";
import { areas, createHandlers } from "./areas.js";
import { recordFailedSignIn } from "./audit/index.js";
import { requestAuthenticator } from "./auth/authenticate.js";
import { type FileSettings, fileSettingsFrom } from "./blobs/settings.js";
import { configFromEnv } from "./config.js";
import { type Clock, type IdGenerator, systemClock, timeOrderedIds } from "./context.js";
import { checkDatabase, type Db } from "./db/database.js";
import { apiErrorFromDatabase } from "./db/errors.js";
import { defaultEventDelivery, type EventDeliverySettings } from "./events/delivery-settings.js";
import { compileContract } from "./http/contract.js";
import { dispatcher } from "./http/dispatch.js";
import { errorAnswers, errorBody, errorHandler, send } from "./http/errors.js";
import { apiReference } from "./http/reference.js";
import { requestLog } from "./http/request-log.js";
import { idempotentRequests } from "./idempotency/store.js";
import { RateLimiter, type RateLimitPolicy } from "./limits/rate-limit.js";
import { createMailer, type Mailer } from "./mail/index.js";
import { createFetcher, type NetworkPolicy, publicAddressesOnly } from "./net/fetch.js";
import { type GitSettings, gitSettingsFrom } from "./net/git.js";
import { createServices } from "./services.js";
import { type OpenApiSpec, servedApiSpec } from "./spec.js";
import { urlsFor } from "./urls.js";

export interface AppOptions {
  db: Db;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Base of the absolute URLs in responses. */
  publicUrl?: string;
  /** Check every response against the contract: on in development and tests, off in production. */
  validateResponses?: boolean;
  apiSpec?: OpenApiSpec;
  /** Signs URLs and encrypts secrets stored at rest (`resolveSecretKey`). */
  secretKey: string;
  /** Requests each token may send per window; no limit when not given. */
  rateLimit?: RateLimitPolicy;
  /** Where uploaded files go; as the environment's defaults say when not given. */
  files?: FileSettings;
  /** Which addresses the server's own requests may reach; public ones only when not given. */
  network?: NetworkPolicy;
  /** Git Sync's repositories; as the environment's defaults say when not given. */
  git?: GitSettings;
  /** How events go out to webhooks and integrations; the defaults when not given. */
  eventDelivery?: EventDeliverySettings;
  /** Sends the server's mail; written to the log when not given. */
  mailer?: Mailer;
}

/** Node's request listener: hand it to `http.createServer` or to supertest. */
export type QuireApp = (req: IncomingMessage, res: ServerResponse) => void;

export function createApp(options: AppOptions): QuireApp {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? timeOrderedIds(clock);
  const logger = options.logger ?? pino({ level: "silent" });
  const apiSpec = options.apiSpec ?? servedApiSpec();
  const { db } = options;
  const publicUrl = options.publicUrl ?? "http://localhost:8080";
  const services = createServices({
    db,
    clock,
    ids,
    urls: urlsFor(publicUrl),
    secretKey: options.secretKey,
    files: options.files ?? fileSettingsFrom(configFromEnv({}).files),
    fetcher: createFetcher(options.network ?? publicAddressesOnly),
    network: options.network ?? publicAddressesOnly,
    git: options.git ?? gitSettingsFrom(configFromEnv({}).git, options.network ?? publicAddressesOnly),
    eventDelivery: options.eventDelivery ?? defaultEventDelivery,
    mailer: options.mailer ?? createMailer(configFromEnv({}).mail, logger),
    logger,
  });

  const logRequest = requestLog(logger);
  const errorAnswer = errorAnswers(logger, apiErrorFromDatabase);
  const api = dispatcher({
    operations: compileContract(apiSpec, { validateResponses: options.validateResponses ?? false }),
    handlers: createHandlers(services),
    authenticate: requestAuthenticator(db, { publicOrigin: new URL(publicUrl).origin, clock }),
    bodyLimit: "1mb",
    fileLimit: services.files.maxUploadBytes,
    ...(options.rateLimit && { rateLimiter: new RateLimiter(db, options.rateLimit) }),
    idempotent: idempotentRequests(db, () => clock.now()),
    answerError: errorAnswer,
    onSignInFailed: (failure) => recordFailedSignIn(db, services, failure),
  });

  // Everything outside the contract: the service's own pages.
  const app = express();
  app.disable("x-powered-by");
  // Readiness: a server whose database does not answer is not ready, whatever its process does.
  app.get("/health", async (_req, res) => {
    const ready = await checkDatabase(db);
    res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "database unavailable" });
  });
  // The service's own pages (published sites, the reference) go out compressed, brotli or gzip as the
  // reader's browser asks, when large enough to gain.
  app.use(compression({ threshold: 1024 }));
  // Areas next: a published site served at its own host answers for every path of that host.
  for (const area of areas) {
    if (!area.routes) continue;
    const router = express.Router();
    area.routes(router, services);
    app.use(router);
  }
  app.get("/", (_req, res) => {
    res.json({ service: "quire", status: "ok", api: "/v1", reference: "/docs" });
  });
  app.use(apiReference(apiSpec, publicUrl));

  app.use((_req, res) => {
    send(res, { status: 404, body: errorBody(404, "No such route.") });
  });
  app.use(errorHandler(errorAnswer));

  // What areas keep ready, answered before the Express app: a published page read again costs no routing.
  const kept = areas.flatMap((area) => (area.kept ? [area.kept(services)] : []));
  const keptOrApp = async (req: IncomingMessage, res: ServerResponse) => {
    for (const answer of kept) if (await answer(req, res)) return;
    app(req, res);
  };

  return (req, res) => {
    const requestId = logRequest(req, res);
    api(req, res)
      .then((answered) => {
        if (answered) return;
        // `send` writes the id with an API answer; the service's own pages get it here.
        res.setHeader("x-request-id", requestId);
        return keptOrApp(req, res);
      })
      .catch((err: unknown) => send(res, errorAnswer(err, res)));
  };
}
