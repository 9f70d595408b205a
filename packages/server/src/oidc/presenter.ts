import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { OrganizationRole } from "../policy.js";
import { presentTeam, type TeamRow } from "../teams/index.js";
import type { Urls } from "../urls.js";
import type { OidcProviderTable } from "./tables.js";

/** Where the OpenID provider and browsers reach a provider on this server. */
export function oidcServiceUrls(urls: Urls, providerId: string) {
  const base = urls.page(`sso/oidc/${providerId}`);
  return { redirectURL: `${base}/callback`, startURL: `${base}/start` };
}

/** The provider as the API shows it: whether a client secret is set, never the secret. */
export function presentOidcProvider(
  row: OidcProviderTable,
  defaultTeam: TeamRow | undefined,
  callerRole: OrganizationRole,
  urls: Urls,
): Schema<"OidcProvider"> {
  return {
    object: "oidc-provider",
    id: row.id,
    label: row.label,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSet: row.client_secret !== null,
    scopes: fromJson(row.scopes),
    ...(defaultTeam && { defaultTeam: presentTeam(defaultTeam, callerRole) }),
    defaultRole: row.default_role,
    createdAt: row.created_at,
    service: oidcServiceUrls(urls, row.id),
    urls: { location: urls.api(`orgs/${row.organization_id}/oidc-providers/${row.id}`) },
  };
}

/** How to sign in through each of the providers, beside the SAML ones in the organization's SSO list. */
export const presentOidcLogins = (
  rows: readonly OidcProviderTable[],
  urls: Urls,
): Schema<"SsoProviderLogin">[] =>
  rows.map((row) => ({ id: row.id, label: row.label, startURL: oidcServiceUrls(urls, row.id).startURL }));
