import type { Router } from "express";
import type { Services } from "../services.js";
import { finishSsoSignIn, refuseSsoSignIn, type SsoMember, ssoLogins } from "../sso/index.js";
import { appDestination } from "../urls.js";
import { finishOidcLogin, OidcRefused, startOidcLogin } from "./login.js";
import { oidcServiceUrls } from "./presenter.js";
import { providerById } from "./store.js";
import type { OidcProviderTable } from "./tables.js";

/**
 * Where browsers sign in through an organization's OpenID Connect provider: the start (authorization
 * code with PKCE, state and nonce, kept server-side and tied to the browser) and the callback, where
 * the provider sends the browser back with the code.
 */
export function oidcRoutes(
  router: Router,
  services: Services,
  ssoMember: SsoMember<OidcProviderTable>,
): void {
  const { db, urls, clock } = services;
  const logins = ssoLogins(db, urls);
  const server = { secretKey: services.secretKey, fetcher: services.fetcher, network: services.network };

  router.get("/sso/oidc/:providerId/start", async (req, res, next) => {
    const provider = await providerById(db, req.params.providerId);
    if (!provider) return next();
    let started: Awaited<ReturnType<typeof startOidcLogin>>;
    try {
      started = await startOidcLogin(provider, server, oidcServiceUrls(urls, provider.id).redirectURL);
    } catch (error) {
      const reason =
        error instanceof OidcRefused
          ? error.reason
          : "The identity provider could not be reached. Try again later.";
      return refuseSsoSignIn(services, req, res, {
        organizationId: provider.organization_id,
        method: "oidc",
        reason,
      });
    }
    const { state, nonce, codeVerifier } = started.pending;
    await logins.begin(
      res,
      {
        request_id: state,
        provider_id: provider.id,
        nonce,
        code_verifier: codeVerifier,
        next: appDestination(urls, req.query.next),
      },
      clock.now(),
    );
    res.redirect(303, started.url);
  });

  router.get("/sso/oidc/:providerId/callback", async (req, res, next) => {
    const provider = await providerById(db, req.params.providerId);
    if (!provider) return next();
    const refuse = (reason: string) =>
      refuseSsoSignIn(services, req, res, {
        organizationId: provider.organization_id,
        method: "oidc",
        reason,
      });
    const state = typeof req.query.state === "string" ? req.query.state : "";
    const login = state ? await logins.take(req, provider.id, state, clock.now()) : undefined;
    if (!login?.nonce || !login.code_verifier)
      return refuse("This sign-in was not started in this browser, or took too long: sign in again.");
    // The callback URL as the provider was given it, with the query it sent back: never the request's Host.
    const callback = new URL(oidcServiceUrls(urls, provider.id).redirectURL);
    callback.search = new URL(req.originalUrl, callback).search;
    try {
      const identity = await finishOidcLogin(provider, server, callback, {
        state,
        nonce: login.nonce,
        codeVerifier: login.code_verifier,
      });
      const user = await ssoMember(services, provider, { email: identity.email, name: identity.name });
      await finishSsoSignIn(services, req, res, { user, method: "oidc", next: login.next });
    } catch (error) {
      if (error instanceof OidcRefused) return refuse(error.reason);
      if (error instanceof Error && error.name === "SsoSignInRefused") return refuse(error.message);
      throw error;
    }
  });
}
