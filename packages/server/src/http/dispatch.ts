import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Handler, Handlers, OperationId } from "@quire/api-types";
import express from "express";
import type { Authenticate } from "../auth/authenticate.js";
import type { Caller } from "../auth/caller.js";
import { type CompiledOperation, holdsNul } from "./contract.js";
import { type Answer, ApiError, badRequest, send } from "./errors.js";
import { RouteIndex } from "./route-index.js";

interface Route {
  operation: CompiledOperation;
  handler: Handler<OperationId, Caller>;
}

interface PathEntry {
  methods: Map<string, Route>;
  /** The `Allow` header of a 405 on this path. */
  allow: string;
}

export interface DispatchOptions {
  operations: readonly CompiledOperation[];
  handlers: Handlers<Caller>;
  authenticate: Authenticate;
  /** Largest JSON body accepted, in body-parser's notation (e.g. "1mb"). */
  bodyLimit: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function decodeSegment(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`path/${name} is not a valid percent-encoded value`);
  }
}

/**
 * The whole request pipeline of the API in one step, built from the contract at start-up:
 * route index → operation → bearer token → JSON body → precompiled parameter and body checks →
 * handler → (response check) → answer. The token is checked before the body is read, so an
 * anonymous caller never makes the server parse anything. It works on Node's own request and
 * response: Express's per-request set-up costs as much as the route lookup and the checks together.
 * Resolves false for a path outside the contract, for the caller to serve otherwise.
 */
export function dispatcher({
  operations,
  handlers,
  authenticate,
  bodyLimit,
}: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const index = new RouteIndex<PathEntry>();
  const byPath = new Map<string, PathEntry>();
  for (const operation of operations) {
    let entry = byPath.get(operation.path);
    if (!entry) {
      entry = { methods: new Map(), allow: "" };
      byPath.set(operation.path, entry);
      index.add(operation.path, entry);
    }
    const handler = handlers[operation.operationId] as Handler<OperationId, Caller>;
    entry.methods.set(operation.method.toUpperCase(), { operation, handler });
    entry.allow = [...entry.methods.keys(), ...(entry.methods.has("GET") ? ["HEAD"] : [])].join(", ");
  }
  // Only bodies whose text spells out a NUL character are walked for one (see `holdsNul`).
  const mayHoldNul = new WeakSet<IncomingMessage>();
  const parseJson = express.json({
    limit: bodyLimit,
    verify: (req, _res, raw) => {
      if (raw.includes("\\u0000")) mayHoldNul.add(req);
    },
  });
  /** body-parser's JSON parser, on Node's request: the body lands on `req.body`. */
  const readJson = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<unknown>((resolve, reject) =>
      parseJson(req as never, res as never, (err?: unknown) =>
        err ? reject(err) : resolve((req as { body?: unknown }).body),
      ),
    );

  return async (req, res) => {
    const url = req.url ?? "/";
    const queryStart = url.indexOf("?");
    const match = index.find(queryStart < 0 ? url : url.slice(0, queryStart));
    if (!match) return false;
    const route = match.value.methods.get(req.method === "HEAD" ? "GET" : (req.method ?? ""));
    if (!route) {
      throw new ApiError(405, `${req.method} is not allowed on this path.`, { allow: match.value.allow });
    }
    const { operation, handler } = route;
    const caller = await authenticate(req.headers.authorization);

    const path: Record<string, string> = {};
    for (const [i, name] of operation.pathParameters.entries())
      path[name] = decodeSegment(match.parameters[i] ?? "", name);
    const query: Record<string, unknown> = queryStart < 0 ? {} : { ...parseQuery(url.slice(queryStart + 1)) };
    operation.validateParameters(path, query);

    let body: unknown;
    if (hasBody(req)) {
      if (!JSON_TYPE.test(req.headers["content-type"] ?? ""))
        throw new ApiError(415, "The request body must be JSON (Content-Type: application/json).");
      const parsed = await readJson(req, res);
      if (mayHoldNul.has(req) && holdsNul(parsed)) throw badRequest("body must not contain a NUL character");
      if (operation.body) body = parsed;
    }
    if (operation.body?.required && body === undefined)
      throw badRequest("This operation needs a JSON request body.");
    operation.validateBody(body);

    const result = (await handler({
      path: path as never,
      query: query as never,
      body: body as never,
      caller,
    })) as Answer;
    operation.validateResponse?.(result.status, result.body);
    send(res, result);
    return true;
  };
}
