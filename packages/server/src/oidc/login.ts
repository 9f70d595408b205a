import * as client from "openid-client";
import { fromJson } from "../db/codecs.js";
import type { Fetcher, NetworkPolicy } from "../net/fetch.js";
import { openClientSecret } from "./client-secret.js";
import type { OidcProviderTable } from "./tables.js";

/** A sign-in the service refuses; `reason` is short and safe to show to the person signing in. */
export class OidcRefused extends Error {
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(reason, options);
    this.name = "OidcRefused";
  }
}

/** What `finishOidcLogin` checks the OpenID provider's answer against: kept by the caller between the two steps. */
export interface OidcPending {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person the OpenID provider vouches for. */
export interface OidcIdentity {
  /** Verified by the provider (`email_verified: true`). */
  email: string;
  name?: string;
  /** `sub`: unique within `issuer`, the stable key of the person there. */
  subject: string;
  issuer: string;
}

/** What the sign-in needs of the server: its key (the client secret is stored encrypted) and network. */
export interface OidcServer {
  secretKey: string;
  /** Every request to the provider goes through it, under `network`. */
  fetcher: Fetcher;
  network: NetworkPolicy;
}

/** Discovery documents and signing keys change rarely; the keys are fetched again on an unknown key id. */
const CONFIGURATION_TTL_MS = 5 * 60 * 1000;
const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

interface CachedConfiguration {
  configuration: client.Configuration;
  expires: number;
}

/** Per fetcher, since a configuration keeps the fetcher (and its network policy) it was made with. */
const configurations = new WeakMap<Fetcher, Map<string, CachedConfiguration>>();

/** openid-client's requests, made by the server's fetcher so that its network policy applies to them. */
function policedFetch(fetcher: Fetcher): client.CustomFetch {
  return async (url, { method, headers, body, signal }) => {
    const limits = { timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, ...(signal && { signal }) };
    if (method === "GET") {
      // Discovery and the signing keys: no credentials, and redirects are not followed (`redirect: manual`).
      const fetched = await fetcher.bytes(url, {
        ...limits,
        maxRedirects: 0,
        accept: headers.accept ?? "*/*",
      });
      return new Response(new Uint8Array(fetched.bytes), {
        headers: { "content-type": fetched.contentType },
      });
    }
    if (method !== "POST" || !(typeof body === "string" || body instanceof URLSearchParams))
      throw new Error(`openid-client made a request the sign-in does not expect: ${method} ${url}`);
    const posted = await fetcher.post(url, body.toString(), { ...limits, headers, keepAnswer: true });
    const answer = new Headers();
    for (const [name, value] of Object.entries(posted.answer?.headers ?? {}))
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
        answer.append(name, one);
    const hasBody = posted.status !== 204 && posted.status !== 304;
    return new Response(hasBody ? new Uint8Array(posted.answer?.body ?? []) : null, {
      status: posted.status,
      headers: answer,
    });
  };
}

/**
 * The provider's client configuration, discovered from its issuer. Plain http only where the server
 * may reach private addresses (a test's provider on loopback, one on the operator's own network):
 * the operator opted into trusting that network; anywhere else the provider must use https.
 */
async function configurationFor(
  provider: OidcProviderTable,
  server: OidcServer,
): Promise<client.Configuration> {
  const cache = configurations.get(server.fetcher) ?? new Map<string, CachedConfiguration>();
  configurations.set(server.fetcher, cache);
  // The sealed secret changes with the secret: a changed provider is discovered afresh.
  const key = JSON.stringify([provider.id, provider.issuer, provider.client_id, provider.client_secret]);
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && cached.expires > now) return cached.configuration;
  for (const [stale, entry] of cache) if (entry.expires <= now) cache.delete(stale);

  const insecure =
    new URL(provider.issuer).protocol === "http:" && server.network.allowedPrivateAddresses.length > 0;
  const fetch = policedFetch(server.fetcher);
  let discovered: client.Configuration;
  try {
    discovered = await client.discovery(new URL(provider.issuer), provider.client_id, undefined, undefined, {
      [client.customFetch]: fetch,
      ...(insecure && { execute: [client.allowInsecureRequests] }),
    });
  } catch (err) {
    throw new OidcRefused("The provider's discovery document could not be read.", { cause: err });
  }
  const metadata = discovered.serverMetadata();
  const secret = openClientSecret(server.secretKey, provider);
  const methods = metadata.token_endpoint_auth_methods_supported;
  // Basic is the default of OpenID Connect Discovery when the provider lists no methods.
  const authentication =
    secret === undefined
      ? client.None()
      : !methods || methods.includes("client_secret_basic")
        ? client.ClientSecretBasic(secret)
        : client.ClientSecretPost(secret);
  const configuration = new client.Configuration(metadata, provider.client_id, undefined, authentication);
  configuration[client.customFetch] = fetch;
  if (insecure) client.allowInsecureRequests(configuration);
  cache.set(key, { configuration, expires: now + CONFIGURATION_TTL_MS });
  return configuration;
}

/**
 * Starts a sign-in: the URL to send the browser to (authorization code with PKCE, state and nonce),
 * and what the caller keeps until the browser comes back to `redirectURL`.
 */
export async function startOidcLogin(
  provider: OidcProviderTable,
  server: OidcServer,
  redirectURL: string,
): Promise<{ url: string; pending: OidcPending }> {
  const configuration = await configurationFor(provider, server);
  const pending = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectURL,
    response_type: "code",
    scope: fromJson(provider.scopes).join(" "),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: "S256",
  });
  return { url: url.href, pending };
}

/**
 * Finishes a sign-in from the URL the browser came back to: exchanges the code (with the PKCE
 * verifier), has openid-client check the ID token (signature, issuer, audience, nonce, expiry), and
 * returns who signed in. Refuses (OidcRefused) any failure, and an email the provider does not say
 * it verified: `email_verified` absent counts as false, since accounts are matched by email and an
 * unverified address would let anyone claim another person's account (Entra ID, for one, omits it).
 */
export async function finishOidcLogin(
  provider: OidcProviderTable,
  server: OidcServer,
  callbackUrl: URL,
  pending: OidcPending,
): Promise<OidcIdentity> {
  const error = callbackUrl.searchParams.get("error");
  if (error !== null) throw new OidcRefused(`The provider refused the sign-in (${error}).`);
  // Checked here as well as by openid-client, so that a forged answer costs no request to the provider.
  if (callbackUrl.searchParams.get("state") !== pending.state)
    throw new OidcRefused("The sign-in answer does not match the sign-in started (state).");
  const configuration = await configurationFor(provider, server);
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.codeVerifier,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    throw new OidcRefused("The provider's answer was not accepted.", { cause: err });
  }
  if (!claims) throw new OidcRefused("The provider returned no ID token.");
  if (typeof claims.email !== "string" || claims.email === "")
    throw new OidcRefused("The provider did not give an email address (the `email` claim).");
  if (claims.email_verified !== true)
    throw new OidcRefused("The provider does not say the email address is verified (`email_verified`).");
  return {
    email: claims.email,
    ...(typeof claims.name === "string" && claims.name !== "" && { name: claims.name }),
    subject: claims.sub,
    issuer: claims.iss,
  };
}
