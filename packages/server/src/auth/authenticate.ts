import type { IncomingMessage } from "node:http";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { grantHolders } from "../access.js";
import type { Clock } from "../context.js";
import type { Db } from "../db/database.js";
import { forbidden, unauthorized } from "../http/errors.js";
import type { Caller } from "./caller.js";
import { sessionHolder } from "./sessions.js";
import { userForToken } from "./tokens.js";

/**
 * How long a token or a session stays trusted without asking the database again. Revoking either, or
 * adding a second factor an organization requires, therefore takes effect within this time on every
 * server process, without any message between them.
 */
export const TOKEN_CACHE_TTL_MS = 1000;
const TOKEN_CACHE_MAX = 10_000;

/** The cookie of a signed-in browser: the session's secret. */
export const SESSION_COOKIE = "quire_session";
/**
 * A header the app sends with every write made with the session cookie. A page of another site cannot
 * send it: a custom header makes the browser ask first (CORS preflight), and the server allows none.
 */
export const CSRF_HEADER = "x-quire-csrf";

/** The caller at once for a credential it trusts; a promise when it must ask the database. */
export type Authenticate = (req: IncomingMessage) => Caller | Promise<Caller>;

const BEARER = /^Bearer (\S+)$/i;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request comes from the server's own pages: its `Origin` is the server's or, without one,
 * the browser says it is same-origin. Browsers send either with every form and `fetch` that writes.
 */
export function fromOwnPages(req: IncomingMessage, publicOrigin: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin === publicOrigin;
  return req.headers["sec-fetch-site"] === "same-origin";
}

/** The session secret a request's cookie carries, if any. */
export function sessionSecretOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookies(header)[SESSION_COOKIE] : undefined;
}

/**
 * Turns a request's credential into the caller, or throws 401: a bearer token (`Authorization`) or,
 * without one, the session cookie. A write with the cookie must come from the server's own pages and
 * carry `CSRF_HEADER` (403 otherwise): the browser sends the cookie with another site's form too.
 * Known credentials are remembered for `TOKEN_CACHE_TTL_MS`, so the hot path costs no query;
 * unknown ones always ask.
 */
export function requestAuthenticator(
  db: Db,
  { publicOrigin, clock }: { publicOrigin: string; clock: Clock },
  now: () => number = performance.now.bind(performance),
): Authenticate {
  const cache = new Map<string, { caller: Caller; expires: number }>();
  const remember = (key: string, caller: Caller, holdsGrants: boolean) => {
    grantHolders.note(caller.user.id, holdsGrants, TOKEN_CACHE_TTL_MS);
    // Oldest first: Map keeps insertion order, so the first key is the one to drop.
    if (cache.size >= TOKEN_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, { caller, expires: now() + TOKEN_CACHE_TTL_MS });
    return caller;
  };
  const byToken = async (token: string): Promise<Caller> => {
    const found = await userForToken(db, token);
    if (!found) throw unauthorized();
    const { user, tokenId, lacksRequiredFactor } = found;
    return remember(`token ${token}`, { user, tokenId, lacksRequiredFactor }, found.holdsGrants);
  };
  const bySession = async (secret: string): Promise<Caller> => {
    const found = await sessionHolder(db, secret, clock.now());
    if (!found) throw unauthorized("The session has ended: sign in again.");
    const { user, sessionId, lacksRequiredFactor } = found;
    return remember(`session ${secret}`, { user, sessionId, lacksRequiredFactor }, found.holdsGrants);
  };
  const known = (key: string): Caller | undefined => {
    const cached = cache.get(key);
    if (cached && cached.expires > now()) return cached.caller;
    cache.delete(key);
    return undefined;
  };
  return (req) => {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const token = BEARER.exec(authorization)?.[1];
      if (!token) throw unauthorized();
      return known(`token ${token}`) ?? byToken(token);
    }
    const secret = sessionSecretOf(req);
    if (!secret) throw unauthorized();
    if (
      !SAFE_METHODS.has(req.method ?? "GET") &&
      !(fromOwnPages(req, publicOrigin) && req.headers[CSRF_HEADER])
    )
      throw forbidden(
        `A write with the session cookie must come from this server's own pages, with the ${CSRF_HEADER} header.`,
      );
    return known(`session ${secret}`) ?? bySession(secret);
  };
}

/**
 * The `Set-Cookie` value carrying a session's secret (or, empty, ending it): out of reach of scripts,
 * sent by the browser to this server only, never with another site's cross-site request (`Lax`),
 * and only over TLS when the server's public URL is https.
 */
export function sessionCookie(
  secret: string,
  { secure, maxAgeMs }: { secure: boolean; maxAgeMs: number },
): string {
  return serializeCookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}
