import type { ServerResponse } from "node:http";
import { type ErrorType, errorTypeOf } from "@quire/api-types";
import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";
import { entityTag } from "./preconditions.js";
import { requestIdOf } from "./request-log.js";

/** What an error carries besides its status and message. */
export interface ApiErrorOptions {
  /** Headers the answer carries, e.g. `Allow` on a 405. */
  headers?: Record<string, string>;
  /** Fields the error body carries beside `code`, `type` and `message`, as the contract declares them. */
  details?: Record<string, unknown>;
  /** The reason clients branch on, when more specific than the status's generic type. */
  type?: ErrorType;
}

/** An error the API answers with its status and message, as `{"error":{"code","type","message"}}`. */
export class ApiError extends Error {
  readonly headers?: Record<string, string>;
  readonly details?: Record<string, unknown>;
  readonly type: ErrorType;

  constructor(
    readonly status: number,
    message: string,
    { headers, details, type = errorTypeOf(status) }: ApiErrorOptions = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.headers = headers;
    this.details = details;
    this.type = type;
  }

  /** The answer this error gets: its status, headers and the standard error body. */
  answer(): Answer {
    return {
      status: this.status,
      body: errorBody(this.status, this.message, this.details, this.type),
      ...(this.headers && { headers: this.headers }),
    };
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "A valid bearer token is required.") =>
  new ApiError(401, message, { headers: { "www-authenticate": 'Bearer realm="quire"' } });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found.`);
export const conflict = (message: string, type?: ErrorType) => new ApiError(409, message, { type });
export const preconditionFailed = (message: string, type?: ErrorType) => new ApiError(412, message, { type });

export function errorBody(
  status: number,
  message: string,
  details?: Record<string, unknown>,
  type = errorTypeOf(status),
) {
  return { error: { ...details, code: status, type, message } };
}

/** An answer as the response writer sees it. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Writes an answer with Node's own primitives: Express's `res.json` would also hash the body for
 * an ETag and check freshness on every answer. With `tagged`, a 200 carries the strong `ETag` of
 * its body (single resources, so that writes can be made conditional). HEAD gets no body. The
 * exchange's request id goes with the other headers.
 *
 * The body goes out as text: Node then writes the head and the body in one `write`, where a
 * buffer body takes a `writev` of two parts, and the text is encoded once, on its way to the socket
 * (measuring and hashing it need no copy).
 */
export function send(res: ServerResponse, { status, headers, body }: Answer, tagged = false): void {
  const head: Record<string, string | number> = { ...headers };
  const id = requestIdOf(res);
  if (id) head["x-request-id"] = id;
  if (body === undefined) {
    res.writeHead(status, head).end();
    return;
  }
  const json = JSON.stringify(body);
  if (tagged && status === 200) head.etag = entityTag(json);
  head["content-type"] = "application/json; charset=utf-8";
  head["content-length"] = Buffer.byteLength(json);
  res.writeHead(status, head).end(json);
}

/** Errors raised by body-parser and friends carry an HTTP status and a type. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  message?: string;
  type?: string;
}

function describe(err: HttpLikeError): string {
  if (err.type === "entity.parse.failed") return "The request body is not valid JSON.";
  if (err.type === "entity.too.large") return "The request body is too large.";
  return err.message || "Request failed.";
}

/**
 * The one place errors become answers; nothing else writes an error body. `translate` turns
 * errors of other layers (the database driver) into API errors where it knows them.
 */
export function errorAnswers(logger: Logger, translate: (err: unknown) => ApiError | undefined) {
  return (err: unknown, res: ServerResponse): Answer => {
    const apiError = err instanceof ApiError ? err : translate(err);
    if (apiError) {
      if (apiError.status >= 500) logger.error({ err, reqId: requestIdOf(res) }, apiError.message);
      return apiError.answer();
    }
    const httpErr = (typeof err === "object" && err !== null ? err : {}) as HttpLikeError;
    const status = httpErr.status ?? httpErr.statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return { status, body: errorBody(status, describe(httpErr)) };
    logger.error({ err, reqId: requestIdOf(res) }, "request failed");
    // Response-validation failures are contract bugs: say so in development, never leak a stack.
    const message =
      err instanceof Error && err.message.startsWith("Response does not match the contract")
        ? err.message
        : "Internal server error.";
    return { status: 500, body: errorBody(500, message) };
  };
}

/** The same answers for what Express serves besides the API. */
export function errorHandler(answer: ReturnType<typeof errorAnswers>): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => send(res, answer(err, res));
}
