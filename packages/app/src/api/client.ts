import type { paths, QuireClient } from "@quire/client";
import createFetchClient, { type Middleware } from "openapi-fetch";
import createQueryClient from "openapi-react-query";
import { signInAgain } from "./session.js";

/** Methods that change nothing: the only ones sent without the CSRF header. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Same origin, with the session cookie. A write with the cookie must carry `X-Quire-CSRF: 1` (another
 * site's form cannot send it); a 401 means the session ended: sign in again and come back.
 */
const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method)) request.headers.set("X-Quire-CSRF", "1");
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) signInAgain();
    return response;
  },
};

/** The typed fetch client of the contract (`@quire/client`'s types), for the app's own origin. */
export const fetchClient: QuireClient = createFetchClient<paths>({ baseUrl: "", credentials: "include" });
fetchClient.use(session);

/** TanStack Query hooks over the contract: cache keys are `[method, pathTemplate, init]`, never invented. */
export const $api = createQueryClient(fetchClient);
