import { Navigate, useParams } from "react-router";
import { useShell } from "../layout/shell-context.js";
import { paths } from "./paths.js";

/**
 * Where the API's `urls.app` of an integration, its installation or an OpenAPI specification lead:
 * the organization's settings section that shows it (the path's organization, else the one shown).
 */
export function SettingsRedirect({ tab }: { tab: "integrations" | "openapi" }) {
  const { organizationId } = useParams();
  const { organization } = useShell();
  return <Navigate replace to={paths.organizationSettings(organizationId ?? organization.id, tab)} />;
}
