import type { Schema } from "@quire/api-types";
import { type OrganizationRow, presentOrganization } from "../organizations/index.js";
import type { Urls } from "../urls.js";
import { integrationPermissions } from "./policy.js";
import type { InstallationRow, IntegrationAccess } from "./store.js";

function integrationUrls(name: string, urls: Urls) {
  const location = urls.api(`integrations/${name}`);
  return { location, app: urls.app(`integrations/${name}`), assets: `${location}/assets` };
}

/**
 * The owner as the caller sees it. Anyone may read a public integration; its owner's email domains
 * (who joins it automatically) are shown to members only.
 */
function presentOwner(owner: OrganizationRow, { ownerMembership }: IntegrationAccess, urls: Urls) {
  const organization = presentOrganization(owner, ownerMembership ?? null, urls);
  return ownerMembership === undefined ? { ...organization, emailDomains: [] } : organization;
}

export function presentIntegration(
  access: IntegrationAccess,
  owner: OrganizationRow,
  urls: Urls,
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
    previewImages: (JSON.parse(row.preview_images) as string[]).map(image),
    target: row.target,
    visibility: row.visibility,
    verified: row.verified === 1,
    scopes: JSON.parse(row.scopes) as Schema<"IntegrationScope">[],
    categories: JSON.parse(row.categories) as Schema<"IntegrationCategory">[],
    blocks: JSON.parse(row.blocks) as Schema<"IntegrationBlock">[],
    contentSources: JSON.parse(row.content_sources) as Schema<"IntegrationContentSource">[],
    ...(row.configurations !== null && {
      configurations: JSON.parse(row.configurations) as Schema<"IntegrationConfigurations">,
    }),
    externalLinks: JSON.parse(row.external_links) as Schema<"IntegrationExternalLink">[],
    owner: presentOwner(owner, access, urls),
    urls: {
      location,
      ...(row.icon !== null && { icon: image(row.icon) }),
      app,
      assets,
      publicEndpoint: `${location}/integration`,
    },
    permissions: integrationPermissions(access),
    ...(row.content_security_policy !== null && { contentSecurityPolicy: row.content_security_policy }),
  };
}

export const presentInstallationOf =
  (integrationName: string, urls: Urls) =>
  (row: InstallationRow): Schema<"Installation"> => ({
    id: row.id,
    target: { organization: row.organization_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: urls.api(`integrations/${integrationName}/installations/${row.id}`),
      app: urls.app(`orgs/${row.organization_id}/integrations/${integrationName}`),
    },
    status: row.status,
    space_selection: row.space_selection,
    site_selection: row.site_selection,
    spaces: Number(row.spaces),
    // The generated type of an open object (`Record<unknown>` in the contract) admits no value.
    configuration: JSON.parse(row.configuration) as Schema<"Installation">["configuration"],
    externalIds: JSON.parse(row.external_ids) as string[],
  });
