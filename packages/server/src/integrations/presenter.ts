import type { Schema } from "@quire/api-types";
import { fromJson, isSet } from "../db/codecs.js";
import { type OrganizationRow, presentOrganization } from "../organizations/index.js";
import type { Urls } from "../urls.js";
import { canManageIntegration, integrationPermissions } from "./policy.js";
import type { InstallationRow, IntegrationAccess } from "./store.js";

function integrationUrls(name: string, urls: Urls) {
  const location = urls.api(`integrations/${name}`);
  return { location, app: urls.app(`integrations/${name}`), assets: `${location}/assets` };
}

/**
 * The owner as the caller sees it. Anyone may read a public integration; its owner's email domains
 * (who joins it automatically) are shown to members only.
 */
function presentOwner(owner: IntegrationOwner, { ownerMembership }: IntegrationAccess, urls: Urls) {
  const caller = { role: ownerMembership ?? null, ownsTeam: owner.callerOwnsTeam };
  const organization = presentOrganization(owner.row, caller, urls);
  return ownerMembership === undefined ? { ...organization, emailDomains: [] } : organization;
}

/** The organization that owns an integration, and whether the caller owns one of its teams. */
export interface IntegrationOwner {
  row: OrganizationRow;
  callerOwnsTeam: boolean;
}

/**
 * An integration as the caller sees it: its events URL to the admins of its owner, its signing
 * secret when given (in the answer of a publication).
 */
export function presentIntegration(
  access: IntegrationAccess,
  owner: IntegrationOwner,
  urls: Urls,
  signingSecret?: string,
): Schema<"Integration"> {
  const row = access.integration;
  const { location, app, assets } = integrationUrls(row.name, urls);
  const image = (hash: string) => `${assets}/${hash}.png`;
  return {
    object: "integration",
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== null && { summary: row.summary }),
    previewImages: fromJson(row.preview_images).map(image),
    target: row.target,
    visibility: row.visibility,
    verified: isSet(row.verified),
    scopes: fromJson(row.scopes),
    categories: fromJson(row.categories),
    blocks: fromJson(row.blocks),
    contentSources: fromJson(row.content_sources),
    ...(row.configurations !== null && { configurations: fromJson(row.configurations) }),
    externalLinks: fromJson(row.external_links),
    owner: presentOwner(owner, access, urls),
    urls: {
      location,
      ...(row.icon !== null && { icon: image(row.icon) }),
      app,
      assets,
      publicEndpoint: `${location}/integration`,
      publicContentEndpoint: `${location}/integration`,
    },
    permissions: integrationPermissions(access),
    ...(row.content_security_policy !== null && { contentSecurityPolicy: row.content_security_policy }),
    ...(row.events_url !== null &&
      canManageIntegration(access.ownerMembership) && { eventsURL: row.events_url }),
    ...(signingSecret !== undefined && { signingSecret }),
  };
}

function installationUrls(
  integrationName: string,
  row: Pick<InstallationRow, "id" | "organization_id">,
  urls: Urls,
): Schema<"InstallationUrls"> {
  const location = urls.api(`integrations/${integrationName}/installations/${row.id}`);
  return {
    location,
    app: urls.app(`orgs/${row.organization_id}/integrations/${integrationName}`),
    publicEndpoint: `${location}/endpoint`,
    publicContentEndpoint: `${location}/endpoint`,
  };
}

export const presentInstallationOf =
  (integrationName: string, urls: Urls) =>
  (row: InstallationRow): Schema<"Installation"> => ({
    id: row.id,
    target: { organization: row.organization_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: installationUrls(integrationName, row, urls),
    status: row.status,
    space_selection: row.space_selection,
    site_selection: row.site_selection,
    spaces: Number(row.spaces),
    // The generated type of an open object (`Record<unknown>` in the contract) admits no value.
    configuration: fromJson(row.configuration) as Schema<"Installation">["configuration"],
    externalIds: fromJson(row.external_ids),
  });
