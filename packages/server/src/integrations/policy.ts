import type { Schema } from "@quire/api-types";
import { atLeast, type Membership } from "../policy.js";
import type { InstallationAccess, IntegrationAccess } from "./store.js";
import type { IntegrationTable } from "./tables.js";

/**
 * GitBook: "Private integrations are only readable by the organization that owns them"; unlisted
 * ones can be read by anyone who knows their name.
 */
export const canSeeIntegration = (visibility: IntegrationTable["visibility"], ownerMembership: Membership) =>
  visibility !== "private" || ownerMembership !== undefined;

/** Publishing a new version and unpublishing: admins of the owner organization. */
export const canManageIntegration = (ownerMembership: Membership) => atLeast(ownerMembership, "admin");

/** Installing into an organization, configuring and uninstalling: admins of that organization. */
export const canManageInstallations = (membership: Membership) => atLeast(membership, "admin");

/** A private integration installs only into its owner organization (GitBook's `private` visibility). */
export const installableInto = (
  integration: Pick<IntegrationTable, "visibility" | "owner_organization_id">,
  organizationId: string,
) => integration.visibility !== "private" || organizationId === integration.owner_organization_id;

/**
 * Seeing installations, whose configuration may hold credentials: admins of the owner organization
 * see every installation, anyone else those of organizations they administer.
 */
export const canListInstallations = ({ ownerMembership, adminAnywhere }: IntegrationAccess) =>
  canManageIntegration(ownerMembership) || adminAnywhere;

export const canViewInstallation = ({ membership, ownerMembership }: InstallationAccess) =>
  canManageInstallations(membership) || canManageIntegration(ownerMembership);

export function integrationPermissions({
  integration,
  ownerMembership,
  adminAnywhere,
}: IntegrationAccess): Schema<"IntegrationPermissions"> {
  const admin = canManageIntegration(ownerMembership);
  return { admin, install: integration.visibility === "private" ? admin : adminAnywhere };
}
