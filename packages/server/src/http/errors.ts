import type { ErrorRequestHandler } from "express";
import type { Logger } from "pino";

/** An error the API answers with its status and message, as `{"error":{"code","message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "A valid bearer token is required.") => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found.`);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

/** Errors raised by express-openapi-validator, body-parser and friends all carry an HTTP status. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  message?: string;
  type?: string;
  headers?: Record<string, string>;
}

function describe(err: HttpLikeError, status: number): string {
  if (err.type === "entity.parse.failed") return "The request body is not valid JSON.";
  if (err.type === "entity.too.large") return "The request body is too large.";
  if (status === 405) return err.message ?? "Method not allowed.";
  if (status === 404 && err.message === "not found") return "No such route.";
  return err.message || "Request failed.";
}

/** The one place errors become responses; nothing else writes an error body. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (err instanceof ApiError) {
      res.status(err.status).json(errorBody(err.status, err.message));
      return;
    }
    const httpErr = (typeof err === "object" && err !== null ? err : {}) as HttpLikeError;
    const status = httpErr.status ?? httpErr.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      if (httpErr.headers) res.set(httpErr.headers);
      res.status(status).json(errorBody(status, describe(httpErr, status)));
      return;
    }
    logger.error({ err }, "request failed");
    // Response-validation failures are contract bugs: say so in development, never leak a stack.
    const message =
      status === 500 && /(^|\/)response\b/.test(httpErr.message ?? "")
        ? `Response does not match the contract: ${httpErr.message}`
        : "Internal server error.";
    res.status(500).json(errorBody(500, message));
  };
}
