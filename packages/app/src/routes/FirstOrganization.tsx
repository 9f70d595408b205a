import { Navigate, useNavigation } from "react-router";
import { useShell } from "../layout/shell-context.js";
import { paths } from "./paths.js";

/**
 * The app's home: the organization the shell shows (the one last shown, or the first). Not while
 * another screen is loading: a link followed before the organizations arrived goes where it leads.
 */
export function FirstOrganization() {
  const { organization } = useShell();
  const navigation = useNavigation();
  if (navigation.state !== "idle") return null;
  return <Navigate replace to={paths.organization(organization.id)} />;
}
