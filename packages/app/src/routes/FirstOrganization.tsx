import { Navigate } from "react-router";
import { useShell } from "../layout/shell-context.js";
import { paths } from "./paths.js";

/** The app's home: the organization the shell shows (the one last shown, or the first). */
export function FirstOrganization() {
  const { organization } = useShell();
  return <Navigate replace to={paths.organization(organization.id)} />;
}
