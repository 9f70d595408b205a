import { generateServiceProviderMetadata } from "@node-saml/node-saml";
import express, { type Router } from "express";
import type { Services } from "../services.js";
import { appDestination } from "../urls.js";
import { finishSsoSignIn, refuseSsoSignIn, type SsoMember, ssoLogins } from "./logins.js";
import { samlServiceUrls } from "./presenter.js";
import { EMAIL_NAME_ID, SamlRefused, samlLoginRequest, verifySamlResponse } from "./saml-login.js";
import { isActive, providerById } from "./store.js";
import type { SamlProviderTable } from "./tables.js";

/** A SAML response is a signed XML document of a few kilobytes; a form past this is no response. */
const RESPONSE_LIMIT = "512kb";

/**
 * What identity providers and browsers reach outside the API: the service provider's metadata (at the
 * URL that is also its entity id), the start of a sign-in (an AuthnRequest, HTTP-Redirect binding),
 * and the assertion consumer service, where the provider posts its signed response.
 */
export function samlRoutes(
  router: Router,
  services: Services,
  ssoMember: SsoMember<SamlProviderTable>,
): void {
  const { db, urls, clock } = services;
  const logins = ssoLogins(db, urls);

  router.get("/sso/saml/:providerId/metadata", async (req, res, next) => {
    const provider = await providerById(db, req.params.providerId);
    if (!provider) return next();
    const service = samlServiceUrls(urls, provider.id);
    const xml = generateServiceProviderMetadata({
      issuer: service.entityID,
      callbackUrl: service.acsURL,
      identifierFormat: EMAIL_NAME_ID,
    });
    res.type("application/samlmetadata+xml").send(xml);
  });

  router.get("/sso/saml/:providerId/start", async (req, res, next) => {
    const provider = await providerById(db, req.params.providerId);
    if (!provider || !isActive(provider) || provider.sso_url === null) return next();
    const { url, requestId } = await samlLoginRequest({
      provider: { ssoURL: provider.sso_url },
      service: samlServiceUrls(urls, provider.id),
    });
    await logins.begin(
      res,
      {
        request_id: requestId,
        provider_id: provider.id,
        nonce: null,
        code_verifier: null,
        next: appDestination(urls, req.query.next),
      },
      clock.now(),
    );
    res.redirect(303, url);
  });

  const form = express.urlencoded({ extended: false, limit: RESPONSE_LIMIT });
  router.post("/sso/saml/:providerId/acs", form, async (req, res, next) => {
    const provider = await providerById(db, req.params.providerId);
    if (!provider || !isActive(provider)) return next();
    const refuse = (reason: string) =>
      refuseSsoSignIn(services, req, res, {
        organizationId: provider.organization_id,
        method: "saml",
        reason,
      });
    const samlResponse = (req.body as Record<string, unknown> | undefined)?.SAMLResponse;
    if (typeof samlResponse !== "string") return refuse("The identity provider sent no SAML response.");
    const now = clock.now();
    let login: Awaited<ReturnType<typeof logins.take>>;
    try {
      const identity = await verifySamlResponse({
        samlResponse,
        provider: { entityId: provider.entity_id ?? "", certificate: provider.certificate ?? "" },
        service: samlServiceUrls(urls, provider.id),
        now,
        expectsRequest: async (requestId) => {
          login = await logins.take(req, provider.id, requestId, now);
          return login !== undefined;
        },
      });
      if (!login || !(await logins.firstUseOf(provider.id, identity.assertionId, identity.notOnOrAfter, now)))
        return refuse("This answer of the identity provider was already used: sign in again.");
      const name = [identity.firstName, identity.lastName].filter(Boolean).join(" ");
      const user = await ssoMember(services, provider, { email: identity.email, name });
      await finishSsoSignIn(services, req, res, { user, method: "saml", next: login.next });
    } catch (error) {
      if (error instanceof SamlRefused)
        return refuse(`The identity provider's answer was refused (${error.reason}). Sign in again.`);
      if (error instanceof Error && error.name === "SsoSignInRefused") return refuse(error.message);
      throw error;
    }
  });
}
