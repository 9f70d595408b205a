import type { Handler, Handlers, OperationId } from "@quire/api-types";
import { type Request, type Response, Router } from "express";
import type { Caller } from "../auth/caller.js";
import { unauthorized } from "./errors.js";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Method = (typeof METHODS)[number];

interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, { operationId?: string }>>>;
}

const callers = new WeakMap<Request, Caller>();

/** Remembers who is calling, once the bearer token was checked. */
export function setCaller(req: Request, caller: Caller): void {
  callers.set(req, caller);
}

function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw unauthorized();
  return caller;
}

/** `/v1/spaces/{spaceId}` → `/v1/spaces/:spaceId` */
const toExpressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/** Any operation's result, as the response writer sees it. */
interface Result {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function send(res: Response, result: Result): void {
  if (result.headers) res.set(result.headers);
  if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}

/**
 * One Express route per operation of the contract, found by its operationId: paths are never
 * written by hand, and the request reaching a handler was already validated against the contract.
 */
export function operationRoutes(apiDoc: OpenApiDocument, handlers: Handlers<Caller>): Router {
  const router = Router({ caseSensitive: true });
  for (const [path, item] of Object.entries(apiDoc.paths)) {
    for (const method of METHODS) {
      const operationId = item[method]?.operationId as OperationId | undefined;
      if (!operationId) continue;
      const handler = handlers[operationId] as Handler<OperationId, Caller>;
      router[method](toExpressPath(path), async (req, res) => {
        const result = await handler({
          path: req.params as never,
          query: req.query as never,
          body: req.body as never,
          caller: callerOf(req),
        });
        send(res, result as Result);
      });
    }
  }
  return router;
}
