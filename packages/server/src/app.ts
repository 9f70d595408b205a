import { randomUUID } from "node:crypto";
import express, { type Express } from "express";
import type { OpenAPIV3 } from "express-openapi-validator/dist/framework/types.js";
import { type Logger, pino } from "pino";
import { pinoHttp } from "pino-http";
import { userForToken } from "./auth/tokens.js";
import { type Clock, type IdGenerator, systemClock, timeOrderedIds } from "./context.js";
import type { Db } from "./db/database.js";
import { createHandlers } from "./handlers.js";
import { errorBody, errorHandler, unauthorized } from "./http/errors.js";
import { operationRoutes, setCaller } from "./http/routes.js";
import { openApiValidator } from "./http/validator.js";
import { loadApiSpec, type OpenApiSpec } from "./spec.js";
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
}

export function createApp(options: AppOptions): Express {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? timeOrderedIds(clock);
  const logger = options.logger ?? pino({ level: "silent" });
  const apiSpec = options.apiSpec ?? loadApiSpec();
  const { db } = options;
  const services = { db, clock, ids, urls: urlsFor(options.publicUrl ?? "http://localhost:8080") };

  const app = express();
  app.disable("x-powered-by");
  app.set("case sensitive routing", true);
  app.use(
    pinoHttp({
      logger,
      // Tokens must never reach the logs.
      redact: ["req.headers.authorization", "req.headers.cookie"],
      genReqId: (req, res) => {
        const id = (req.headers["x-request-id"] as string | undefined) ?? randomUUID();
        res.setHeader("x-request-id", id);
        return id;
      },
    }),
  );

  app.get("/", (_req, res) => {
    res.json({ service: "quire", status: "ok", api: "/v1" });
  });
  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });

  app.use(express.json({ limit: "1mb" }));
  app.use(
    openApiValidator({
      apiSpec: apiSpec as unknown as OpenAPIV3.DocumentV3_1,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: options.validateResponses ?? false,
      validateSecurity: {
        handlers: {
          BearerAuth: async (req) => {
            const header = req.headers.authorization ?? "";
            const token = /^Bearer (\S+)$/i.exec(header)?.[1];
            const user = token ? await userForToken(db, token) : undefined;
            if (!user) throw unauthorized();
            setCaller(req, { user });
            return true;
          },
        },
      },
    }),
  );
  app.use(operationRoutes(apiSpec, createHandlers(services)));
  app.use((_req, res) => {
    res.status(404).json(errorBody(404, "No such route."));
  });
  app.use(errorHandler(logger));
  return app;
}
