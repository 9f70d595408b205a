import { grantHolders } from "../access.js";
import type { Db } from "../db/database.js";
import { unauthorized } from "../http/errors.js";
import type { Caller } from "./caller.js";
import { userForToken } from "./tokens.js";

/**
 * How long a token stays trusted without asking the database again. Revoking a token therefore
 * takes effect within this time on every server process, without any message between them.
 */
export const TOKEN_CACHE_TTL_MS = 1000;
const TOKEN_CACHE_MAX = 10_000;

/** The caller at once for a token it trusts; a promise when it must ask the database. */
export type Authenticate = (authorization: string | undefined) => Caller | Promise<Caller>;

const BEARER = /^Bearer (\S+)$/i;

/**
 * Turns an Authorization header into the caller, or throws 401. Known tokens are remembered for
 * `TOKEN_CACHE_TTL_MS`, so the hot path costs no query for the token; unknown ones always ask.
 */
export function bearerAuthenticator(
  db: Db,
  now: () => number = performance.now.bind(performance),
): Authenticate {
  const cache = new Map<string, { caller: Caller; expires: number }>();
  const lookUp = async (token: string): Promise<Caller> => {
    const found = await userForToken(db, token);
    if (!found) throw unauthorized();
    grantHolders.note(found.user.id, found.holdsGrants, TOKEN_CACHE_TTL_MS);
    const caller = { user: found.user, tokenId: found.tokenId };
    // Oldest first: Map keeps insertion order, so the first key is the one to drop.
    if (cache.size >= TOKEN_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(token, { caller, expires: now() + TOKEN_CACHE_TTL_MS });
    return caller;
  };
  return (authorization) => {
    const token = authorization && BEARER.exec(authorization)?.[1];
    if (!token) throw unauthorized();
    const cached = cache.get(token);
    if (cached && cached.expires > now()) return cached.caller;
    cache.delete(token);
    return lookUp(token);
  };
}
