import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

/**
 * Gives every exchange a request id (the caller's `X-Request-Id`, or a new one), echoes it, and
 * logs one line when the answer is sent: method, URL, status and time — never a header, so no
 * token reaches the logs. Nothing is serialized when the level is off.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && given.length > 0 && given.length <= 200 ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader("x-request-id", id);
    if (logger.isLevelEnabled("info")) {
      const start = performance.now();
      res.once("finish", () => {
        logger.info(
          {
            req: { id, method: req.method, url: req.originalUrl },
            res: { statusCode: res.statusCode },
            responseTime: Math.round(performance.now() - start),
          },
          "request completed",
        );
      });
    }
    next();
  };
}
