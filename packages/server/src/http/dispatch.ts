import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Handler, Handlers, OperationId } from "@quire/api-types";
import express from "express";
import type { Authenticate } from "../auth/authenticate.js";
import type { Caller } from "../auth/caller.js";
import { OPEN_WITHOUT_REQUIRED_FACTOR, secondFactorRequired } from "../auth/required-factor.js";
import type { IdempotentRequests } from "../idempotency/store.js";
import type { RateLimiter } from "../limits/rate-limit.js";
import {
  type CompiledOperation,
  holdsUnstorableText,
  MAX_BODY_DEPTH,
  nestsDeeperThan,
  UNSTORABLE_TEXT,
} from "./contract.js";
import { type Answer, ApiError, badRequest, preconditionFailed, send } from "./errors.js";
import { readFormFiles } from "./form.js";
import { entityTag, ifMatchHolds, KeyedQueue } from "./preconditions.js";
import { withRequestOrigin } from "./request-context.js";
import { RouteIndex } from "./route-index.js";

interface Route {
  operation: CompiledOperation;
  handler: Handler<OperationId, Caller>;
  /** A caller lacking a second factor their organization requires may call it (to add one, say). */
  openWithoutRequiredFactor: boolean;
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
  /** Largest file accepted in a multipart form, in bytes. */
  fileLimit: number;
  /** Counts each token's requests; a token over its limit is answered 429. */
  rateLimiter?: RateLimiter;
  /** Runs POSTs sent with an `Idempotency-Key` once (see src/idempotency/store.ts). */
  idempotent?: IdempotentRequests;
  /** Turns what an operation threw into its answer (the one error module's `errorAnswers`). */
  answerError: (err: unknown, res: ServerResponse) => Answer;
  /** Told of a request whose bearer token authenticated no one, before it is answered 401. */
  onSignInFailed?: (failure: SignInFailure) => Promise<void>;
}

/** A request sent with an Authorization header that authenticated no one. */
export interface SignInFailure {
  operationId: OperationId;
  /** The organization the path names (`organizationId`), if it does: it may not exist. */
  organizationId?: string;
  address?: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function decodeSegment(raw: string, name: string): string {
  // Ids never need decoding; decodeURIComponent would still copy them.
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`path/${name} is not a valid percent-encoded value`);
  }
}

const tokenOf = (authorization = "") => authorization.replace(/^bearer\s+/i, "");

/**
 * Counts the request against its token's limit and says where the token stands, in the `RateLimit`
 * and `RateLimit-Policy` headers of the IETF draft; over the limit, 429 with `Retry-After`.
 */
async function limitRate(limiter: RateLimiter, key: string, res: ServerResponse): Promise<void> {
  const state = await limiter.take(key);
  const windowSeconds = Math.round(limiter.policy.windowMs / 1000);
  res.setHeader(
    "RateLimit",
    `limit=${state.limit}, remaining=${state.remaining}, reset=${state.resetSeconds}`,
  );
  res.setHeader("RateLimit-Policy", `${state.limit};w=${windowSeconds}`);
  if (!state.allowed)
    throw new ApiError(
      429,
      `Too many requests: a token, or an address without a valid one, may send ${state.limit} every ${windowSeconds} s. Try again in ${state.resetSeconds} s.`,
      { headers: { "retry-after": String(state.resetSeconds) } },
    );
}

/**
 * The whole request pipeline of the API in one step, built from the contract at start-up:
 * route index → operation → bearer token (and a second factor an organization requires) → JSON body
 * → precompiled parameter and body checks → handler → (response check) → answer. The token is
 * checked before the body is read, so an anonymous caller never makes the server parse anything. It
 * works on Node's own request and response: Express's per-request set-up costs as much as the route
 * lookup and the checks together.
 * Resolves false for a path outside the contract, for the caller to serve otherwise.
 */
export function dispatcher({
  operations,
  handlers,
  authenticate,
  bodyLimit,
  fileLimit,
  rateLimiter,
  idempotent,
  answerError,
  onSignInFailed,
}: DispatchOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const index = new RouteIndex<PathEntry>();
  // Writes with `If-Match` to one resource run one at a time, each checked against the one before.
  const guardedWrites = new KeyedQueue();
  const byPath = new Map<string, PathEntry>();
  for (const operation of operations) {
    let entry = byPath.get(operation.path);
    if (!entry) {
      entry = { methods: new Map(), allow: "" };
      byPath.set(operation.path, entry);
      index.add(operation.path, entry, { restOfPath: operation.restOfPath });
    }
    const handler = handlers[operation.operationId] as Handler<OperationId, Caller>;
    entry.methods.set(operation.method.toUpperCase(), {
      operation,
      handler,
      openWithoutRequiredFactor: OPEN_WITHOUT_REQUIRED_FACTOR.has(operation.operationId),
    });
    entry.allow = [...entry.methods.keys(), ...(entry.methods.has("GET") ? ["HEAD"] : [])].join(", ");
  }
  // Only bodies whose text spells out a NUL character or a surrogate (JSON has no other way to carry
  // one) are walked for them (see `holdsUnstorableText`).
  const mayBeUnstorable = new WeakSet<IncomingMessage>();
  const parseJson = express.json({
    limit: bodyLimit,
    verify: (req, _res, raw) => {
      if (raw.includes("\\u0000") || raw.includes("\\ud") || raw.includes("\\uD")) mayBeUnstorable.add(req);
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
      throw new ApiError(405, `${req.method} is not allowed on this path.`, {
        headers: { allow: match.value.allow },
      });
    }
    const { operation, handler, openWithoutRequiredFactor } = route;
    try {
      let caller: Caller;
      try {
        // A trusted token answers at once; awaiting it anyway would cost every request a turn of the queue.
        const authenticated = authenticate(req);
        caller = authenticated instanceof Promise ? await authenticated : authenticated;
      } catch (err) {
        // Without a valid token there is no token to count against: the client's address answers for it.
        if (rateLimiter && err instanceof ApiError && err.status === 401)
          await limitRate(rateLimiter, `address ${req.socket.remoteAddress}`, res);
        // A token that failed is a failed sign-in; no header at all is only an anonymous call.
        if (onSignInFailed && req.headers.authorization && err instanceof ApiError && err.status === 401) {
          const at = operation.pathParameters.indexOf("organizationId");
          // Organization ids need no decoding: one that does names none.
          const organizationId = at < 0 ? undefined : match.parameters[at];
          await onSignInFailed({
            operationId: operation.operationId,
            ...(organizationId && !organizationId.includes("%") && { organizationId }),
            ...(req.socket.remoteAddress && { address: req.socket.remoteAddress }),
          });
        }
        throw err;
      }
      if (rateLimiter)
        await limitRate(
          rateLimiter,
          caller.sessionId === undefined ? tokenOf(req.headers.authorization) : `session ${caller.sessionId}`,
          res,
        );
      if (caller.lacksRequiredFactor && !openWithoutRequiredFactor) throw secondFactorRequired();

      const path: Record<string, string> = {};
      for (const [i, name] of operation.pathParameters.entries())
        path[name] = decodeSegment(match.parameters[i] ?? "", name);
      const query: Record<string, unknown> =
        queryStart < 0 ? {} : { ...parseQuery(url.slice(queryStart + 1)) };
      operation.validateParameters(path, query);

      let body: unknown;
      const formFiles = operation.body?.formFiles;
      if (formFiles) {
        // Read when the handler asks, once it has checked that the caller may send it.
        body = () => readFormFiles(req, formFiles, fileLimit);
      } else if (hasBody(req)) {
        if (!JSON_TYPE.test(req.headers["content-type"] ?? ""))
          throw new ApiError(415, "The request body must be JSON (Content-Type: application/json).");
        const parsed = await readJson(req, res);
        if (nestsDeeperThan(parsed, MAX_BODY_DEPTH))
          throw badRequest(
            `The request body nests deeper than the ${MAX_BODY_DEPTH} levels the server accepts.`,
          );
        if (mayBeUnstorable.has(req) && holdsUnstorableText(parsed))
          throw badRequest(`body must not contain ${UNSTORABLE_TEXT}`);
        if (operation.body) body = parsed;
      }
      if (operation.body?.required && body === undefined)
        throw badRequest("This operation needs a JSON request body.");
      if (!formFiles) operation.validateBody(body);

      // What the handler records (events) names the request's token and address.
      const origin = {
        ...(caller.tokenId !== undefined && { tokenId: caller.tokenId }),
        ...(req.socket.remoteAddress && { address: req.socket.remoteAddress }),
      };
      const run = () =>
        withRequestOrigin(
          origin,
          () =>
            handler({ path: path as never, query: query as never, body: body as never, caller }) as
              | Promise<Answer>
              | Answer,
        );
      const method = req.method;
      const idempotencyKey = req.headers["idempotency-key"];
      const ifMatch = req.headers["if-match"];
      // Only a read of one resource has an ETag that If-Match can name (a list at a create's path has none).
      const reader = match.value.methods.get("GET");
      let result: Answer;
      // An upload is not kept for replays: it is not read before its handler runs.
      if (method === "POST" && typeof idempotencyKey === "string" && idempotent && !formFiles)
        result = await idempotent({ userId: caller.user.id, key: idempotencyKey, url, body }, async () =>
          run(),
        );
      else if (
        (method === "PATCH" || method === "PUT") &&
        ifMatch !== undefined &&
        reader?.operation.readsOneResource
      )
        result = await guardedWrites.run(`${operation.path} ${JSON.stringify(path)}`, async () => {
          const current = (await reader.handler({
            path: path as never,
            query: {} as never,
            body: undefined,
            caller,
          })) as Answer;
          const tag = entityTag(JSON.stringify(current.body));
          if (!ifMatchHolds(ifMatch, tag))
            throw preconditionFailed(
              `The resource changed since the representation tagged ${ifMatch.trim()} was read; it is now ${tag}. Read it again, then retry with its ETag.`,
              "etag_mismatch",
            );
          return run();
        });
      else result = await run();
      operation.validateResponse?.(result.status, result.body);
      send(res, result, operation.readsOneResource);
    } catch (err) {
      // What an operation throws is checked against its declared statuses too (outside production),
      // so that an undeclared error status fails a test the day it is written; a 5xx is a failure
      // already, whose message must not be lost to a second one.
      const answered = answerError(err, res);
      if (answered.status < 500) operation.validateResponse?.(answered.status, answered.body);
      send(res, answered);
    }
    return true;
  };
}
