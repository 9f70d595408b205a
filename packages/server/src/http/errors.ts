import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";

/** An error the API answers with its status and message, as `{"error":{"code","message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Headers the answer carries, e.g. `Allow` on a 405. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = "A valid bearer token is required.") =>
  new ApiError(401, message, { "www-authenticate": 'Bearer realm="quire"' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (what: string) => new ApiError(404, `${what} not found.`);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
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

/** The request id the request log gave this exchange, for error lines. */
export const requestIdOf = (res: Response): string | undefined => res.locals.requestId as string | undefined;

/**
 * The one place errors become responses; nothing else writes an error body. `translate` turns
 * errors of other layers (the database driver) into API errors where it knows them.
 */
export function errorHandler(
  logger: Logger,
  translate: (err: unknown) => ApiError | undefined = () => undefined,
): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    const apiError = err instanceof ApiError ? err : translate(err);
    if (apiError) {
      if (apiError.status >= 500) logger.error({ err, reqId: requestIdOf(res) }, apiError.message);
      if (apiError.headers) res.set(apiError.headers);
      res.status(apiError.status).json(errorBody(apiError.status, apiError.message));
      return;
    }
    const httpErr = (typeof err === "object" && err !== null ? err : {}) as HttpLikeError;
    const status = httpErr.status ?? httpErr.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      res.status(status).json(errorBody(status, describe(httpErr)));
      return;
    }
    logger.error({ err, reqId: requestIdOf(res) }, "request failed");
    // Response-validation failures are contract bugs: say so in development, never leak a stack.
    const message =
      err instanceof Error && err.message.startsWith("Response does not match the contract")
        ? err.message
        : "Internal server error.";
    res.status(500).json(errorBody(500, message));
  };
}
