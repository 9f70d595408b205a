import { type AccessRule, accessRule, pathParameter } from "../area.js";
import {
  type InstallationAccess,
  type IntegrationAccess,
  installationForCaller,
  integrationForCaller,
} from "./store.js";

/**
 * The access rule of an operation on the integration of path parameter `integrationName`: 404 unless
 * the caller may see it, 403 naming `action` unless `allows` their access to it.
 */
export function onIntegration(
  action: string,
  allows: (standing: IntegrationAccess) => boolean = () => true,
): AccessRule<IntegrationAccess> {
  return accessRule(
    "integration",
    action,
    ({ db }, caller, path) =>
      integrationForCaller(db, pathParameter(path, "integrationName"), caller.user.id),
    allows,
  );
}

/**
 * The access rule of an operation on the installation of path parameter `installationId` of the
 * integration `integrationName`: 404 unless the caller may see it, 403 naming `action` unless `allows`
 * their access to it.
 */
export function onInstallation(
  action: string,
  allows: (standing: InstallationAccess) => boolean = () => true,
): AccessRule<InstallationAccess> {
  return accessRule(
    "installation",
    action,
    ({ db }, caller, path) =>
      installationForCaller(
        db,
        pathParameter(path, "integrationName"),
        pathParameter(path, "installationId"),
        caller.user.id,
      ),
    allows,
  );
}
