import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Logger, pino } from "pino";

const REQUEST_ID = Symbol("request id");
const STARTED = Symbol("started");
/** A response with what the request log keeps of its exchange. */
type Logged = ServerResponse & { [REQUEST_ID]?: string; [STARTED]?: number };
/** A response whose line is to be written: both are set before its listener is added. */
type Timed = ServerResponse & { [REQUEST_ID]: string; [STARTED]: number };

/** The request id the request log gave this exchange, for its answer and its error lines. */
export const requestIdOf = (res: ServerResponse): string | undefined => (res as Logged)[REQUEST_ID];

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

/** The parts of a pino logger that a line written without it needs, under pino's exported symbols. */
interface PinoInternals {
  [pino.symbols.streamSym]: { write(line: string): void };
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.timeSym]: () => string;
}

/**
 * Writes one request line to the logger's destination, in the format pino gives
 * `logger.info({ req, res, responseTime }, "request completed")`: level, time, the logger's
 * bindings, then the fields. Going through pino's generic serializer cost twice as much, and this
 * line is written for every request.
 */
function requestLineWriter(logger: Logger) {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[pino.symbols.streamSym];
  const head = `{"level":${logger.levels.values.info}`;
  const bindings = internals[pino.symbols.chindingsSym];
  const time = internals[pino.symbols.timeSym];
  return (id: string, method: string | undefined, url: string | undefined, status: number, ms: number) =>
    stream.write(
      `${head}${time()}${bindings},"req":{"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},"res":{"statusCode":${status}},"responseTime":${ms},"msg":"request completed"}\n`,
    );
}

/**
 * Gives every exchange a request id (the caller's `X-Request-Id`, or a new one) and returns it for
 * the answer to echo: `send` writes it with the other headers, since a header set beforehand makes
 * Node merge them all one by one. Logs one line when the answer is sent: method, URL, status and
 * time — never a header, so no token reaches the logs, nor any secret of the query. Nothing is
 * written when the level is off.
 */
export function requestLog(logger: Logger) {
  const writeLine = requestLineWriter(logger);
  // One listener for every exchange, reading it off the response: no closure per request.
  function logFinished(this: Timed) {
    const { method, url } = this.req;
    const ms = Math.round(performance.now() - this[STARTED]);
    writeLine(this[REQUEST_ID], method, loggedUrl(url), this.statusCode, ms);
  }
  return (req: IncomingMessage, res: Logged): string => {
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && given.length > 0 && given.length <= 200 ? given : randomUUID();
    res[REQUEST_ID] = id;
    if (!logger.isLevelEnabled("info")) return id;
    res[STARTED] = performance.now();
    res.on("finish", logFinished);
    return id;
  };
}
