import type { IncomingHttpHeaders } from "node:http";
import express, { type Request, type Response, type Router } from "express";
import { ApiError, notFound } from "../http/errors.js";
import { FetchError } from "../net/fetch.js";
import type { Services } from "../services.js";
import { integrationRequestHeaders } from "./events.js";
import { endpointOf } from "./store.js";

/** The most of a request's body forwarded, as the API takes. */
const REQUEST_LIMIT = "1mb";
/** The most of an integration's answer relayed. */
const ANSWER_BYTES = 5 * 1024 * 1024;
/** Never forwarded: the caller's credentials on Quire (a token, a site's session), and the hop's own. */
const NOT_FORWARDED = new Set([
  "authorization",
  "cookie",
  "host",
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
]);
/** What of an integration's answer is relayed besides its status and body: no cookie is set on Quire's origin. */
const RELAYED = [
  "content-type",
  "content-disposition",
  "content-language",
  "location",
  "cache-control",
  "expires",
  "etag",
  "last-modified",
  "vary",
  "retry-after",
  "www-authenticate",
];
/**
 * Every answer relayed runs as an origin of its own: its scripts run, but reach no cookie or
 * storage of the server's origin.
 */
const SANDBOX =
  "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads";

/** GitBook's `fetch` event: a request to an integration's public endpoint, as the integration receives it. */
interface FetchEvent {
  eventId: string;
  type: "fetch";
  installationId?: string;
  request: { method: string; url: string; headers: Record<string, string> };
  /** The request's body, base64; absent when it has none. */
  body?: string;
}

const forwardedHeaders = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined || NOT_FORWARDED.has(name)
        ? []
        : [[name, Array.isArray(value) ? value.join(", ") : value]],
    ),
  );

/**
 * The integrations' and installations' public endpoints (`urls.publicEndpoint`): a request to one,
 * from anyone, goes to the integration's events URL as a signed `fetch` event, through the network
 * policy and within the event delivery's time; the integration's answer comes back, sandboxed.
 */
export function integrationEndpointRoutes(router: Router, services: Services): void {
  const { db, ids, urls, fetcher, secretKey, eventDelivery } = services;
  const body = express.raw({ type: () => true, limit: REQUEST_LIMIT });

  async function forward(req: Request, res: Response, name: string, installationId?: string) {
    const integration = await endpointOf(db, name, installationId);
    if (!integration) throw notFound(installationId === undefined ? "Integration" : "Installation");
    if (integration.events_url === null || integration.signing_secret === null)
      throw new ApiError(404, "The integration declares no eventsURL: it takes no requests.");
    const event: FetchEvent = {
      eventId: ids.next(),
      type: "fetch",
      ...(installationId !== undefined && { installationId }),
      request: {
        method: req.method.toLowerCase(),
        url: urls.api(req.originalUrl.replace(/^\/v1\//, "")),
        headers: forwardedHeaders(req.headers),
      },
      ...(Buffer.isBuffer(req.body) && req.body.length > 0 && { body: req.body.toString("base64") }),
    };
    const payload = JSON.stringify(event);
    const signer = { id: integration.id, sealedSecret: integration.signing_secret };
    let answer: Awaited<ReturnType<typeof fetcher.post>>;
    try {
      answer = await fetcher.post(integration.events_url, payload, {
        headers: {
          "content-type": "application/json",
          ...integrationRequestHeaders(secretKey, signer, payload),
        },
        timeoutMs: eventDelivery.timeoutMs,
        maxBytes: ANSWER_BYTES,
        keepAnswer: true,
      });
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      if (err.timedOut)
        throw new ApiError(504, `The integration did not answer within ${eventDelivery.timeoutMs} ms.`);
      // Why stays unsaid: the caller may be anyone, and the error names the address the URL resolved to.
      throw new ApiError(502, "The integration could not be reached.");
    }
    const relayed = answer.answer;
    if (!relayed) throw new Error("The integration's answer was not kept");
    res.status(answer.status);
    for (const header of RELAYED) {
      const value = relayed.headers[header];
      if (value !== undefined) res.setHeader(header, value);
    }
    const policies = [
      SANDBOX,
      ...(integration.content_security_policy ? [integration.content_security_policy] : []),
    ];
    res.setHeader("content-security-policy", policies);
    res.setHeader("x-content-type-options", "nosniff");
    res.end(relayed.body);
  }

  router.all("/v1/integrations/:integrationName/integration{/*rest}", body, (req, res) =>
    forward(req, res, req.params.integrationName as string),
  );
  router.all(
    "/v1/integrations/:integrationName/installations/:installationId/endpoint{/*rest}",
    body,
    (req, res) => forward(req, res, req.params.integrationName as string, req.params.installationId),
  );
}
