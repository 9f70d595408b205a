import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";

/** The request id the request log gave this exchange, for error lines: the header it echoes. */
export const requestIdOf = (res: ServerResponse): string | undefined => {
  const id = res.getHeader("x-request-id");
  return typeof id === "string" ? id : undefined;
};

/** Query parameters that carry secrets: a published site's share key and a visitor's token. */
const SECRET_PARAMETERS = ["share", "shareKey", "jwt_token"];

/** The URL as logged: the values of secret query parameters replaced by `***`. */
export function loggedUrl(url: string | undefined): string | undefined {
  const query = url?.indexOf("?") ?? -1;
  if (url === undefined || query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  const secrets = SECRET_PARAMETERS.filter((name) => params.has(name));
  if (secrets.length === 0) return url;
  for (const name of secrets) params.set(name, "***");
  return `${url.slice(0, query)}?${params.toString()}`;
}

/**
 * Gives every exchange a request id (the caller's `X-Request-Id`, or a new one), echoes it, and
 * logs one line when the answer is sent: method, URL, status and time — never a header, so no
 * token reaches the logs, nor any secret of the query. Nothing is serialized when the level is off.
 */
export function requestLog(logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && given.length > 0 && given.length <= 200 ? given : randomUUID();
    res.setHeader("x-request-id", id);
    if (!logger.isLevelEnabled("info")) return;
    const start = performance.now();
    res.once("finish", () => {
      logger.info(
        {
          req: { id, method: req.method, url: loggedUrl(req.url) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - start),
        },
        "request completed",
      );
    });
  };
}
