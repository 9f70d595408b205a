import { generateServiceProviderMetadata } from "@node-saml/node-saml";
import type { Router } from "express";
import type { Services } from "../services.js";
import { samlServiceUrls } from "./presenter.js";
import { EMAIL_NAME_ID } from "./saml-login.js";
import { providerById } from "./store.js";

/**
 * What identity providers fetch outside the API: the service provider's metadata, at the URL
 * that is also its entity id.
 */
export function samlRoutes(router: Router, { db, urls }: Services): void {
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
}
