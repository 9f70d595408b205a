import type { Schema } from "@quire/api-types";
import type { OrganizationRole } from "../policy.js";
import { presentTeam, type TeamRow } from "../teams/index.js";
import type { Urls } from "../urls.js";
import { isActive } from "./store.js";
import type { SamlProviderTable } from "./tables.js";

/** The server's root URL, where the routes outside the API live. */
const rootOf = (urls: Urls) => urls.api("").replace(/\/v1\/$/, "");

/** Where the identity provider and browsers reach a provider on this server (see `samlRoutes`). */
export function samlServiceUrls(urls: Urls, providerId: string) {
  const base = `${rootOf(urls)}/sso/saml/${providerId}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** Where a browser starts signing in through a SAML provider. */
export const samlStartUrl = (urls: Urls, providerId: string): string =>
  samlServiceUrls(urls, providerId).startURL;

/** How to sign in through each of the providers, as `listSSOProviderLoginsInOrganization` lists them. */
export const presentSamlLogins = (
  rows: readonly SamlProviderTable[],
  urls: Urls,
): Schema<"SsoProviderLogin">[] =>
  rows.map((row) => ({ id: row.id, label: row.label, startURL: samlStartUrl(urls, row.id) }));

export function presentSamlProvider(
  row: SamlProviderTable,
  defaultTeam: TeamRow | undefined,
  callerRole: OrganizationRole,
  urls: Urls,
): Schema<"SamlProvider"> {
  return {
    object: "saml-provider",
    id: row.id,
    label: row.label,
    ...(row.sso_url !== null && { ssoURL: row.sso_url }),
    ...(row.entity_id !== null && { entityID: row.entity_id }),
    ...(row.certificate !== null && { certificate: row.certificate }),
    ...(defaultTeam && { defaultTeam: presentTeam(defaultTeam, callerRole) }),
    defaultRole: row.default_role,
    createdAt: row.created_at,
    status: isActive(row) ? "active" : "pending",
    service: samlServiceUrls(urls, row.id),
    urls: { location: urls.api(`orgs/${row.organization_id}/saml/${row.id}`) },
  };
}
