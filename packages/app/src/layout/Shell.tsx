import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { Link, NavLink, Outlet, useLocation, useParams } from "react-router";
import { $api } from "../api/client.js";
import { prefetchContent, useOrganizations } from "../api/pages.js";
import { useDisclosure } from "../components/disclosure.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { paths } from "../routes/paths.js";
import { ContentNav } from "./ContentNav.js";
import { CreateContent } from "./CreateContent.js";
import { OrganizationSwitcher } from "./OrganizationSwitcher.js";
import { SearchBox } from "./SearchBox.js";
import type { ShellContext } from "./shell-context.js";
import { ThemeSwitch } from "./ThemeSwitch.js";

const LAST_ORGANIZATION = "quire.organization";

/**
 * The frame of every screen: the header (organization, search, theme, account), the sidebar (the
 * organization's sections and its Content navigation; a drawer on a phone) and the main landmark.
 * The organization shown is the path's, else the one a screen names, else the last shown, else the first.
 */
export function Shell() {
  const params = useParams();
  const [named, setNamed] = useState<string>();
  const organizations = useOrganizations();
  const list = organizations.data ?? [];
  const wanted = params.organizationId ?? named ?? localStorage.getItem(LAST_ORGANIZATION);
  const organization = list.find((org) => org.id === wanted) ?? list[0];
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at the first render
  useEffect(() => {
    if (wanted) prefetchContent(queryClient, wanted);
  }, []);
  const showOrganization = useCallback((id: string) => setNamed(id), []);
  useEffect(() => {
    if (organization) localStorage.setItem(LAST_ORGANIZATION, organization.id);
  }, [organization]);

  const drawer = useDisclosure();
  const toolsId = `${drawer.id}-tools`;
  const location = useLocation();
  // Following a link in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is what changes
  useEffect(() => drawer.setOpen(false), [location.pathname]);

  return (
    <div className="shell">
      <header className="header">
        <button className="menu-button" {...drawer.toggle} aria-controls={`${drawer.id} ${toolsId}`}>
          {t("header.menu")}
        </button>
        <Link className="brand" to={organization ? paths.organization(organization.id) : paths.home}>
          {organization?.title ?? t("app.name")}
        </Link>
        {organization && list.length > 1 && (
          <OrganizationSwitcher organizations={list} current={organization} />
        )}
        {organization && <SearchBox organizationId={organization.id} />}
        {/* On a phone these are in the drawer's part of the header: shown with it, by Menu. */}
        <div className="header-tools" id={toolsId} data-open={drawer.open}>
          <ThemeSwitch />
          <Account />
        </div>
      </header>
      <div className="body">
        {organization && (
          <div className="sidebar" id={drawer.id} data-open={drawer.open}>
            <nav className="sections-nav" aria-label={t("nav.organization")}>
              <ul>
                <li>
                  <NavLink to={paths.organization(organization.id)} end>
                    {t("nav.home")}
                  </NavLink>
                </li>
                <li>
                  <NavLink to={paths.people(organization.id, "")}>{t("nav.people")}</NavLink>
                </li>
                <li>
                  <NavLink to={paths.sites(organization.id)}>{t("nav.sites")}</NavLink>
                </li>
                <li>
                  <NavLink to={paths.organizationSettings(organization.id, "")}>{t("nav.settings")}</NavLink>
                </li>
              </ul>
            </nav>
            <ContentNav organizationId={organization.id} />
            <CreateContent organizationId={organization.id} />
          </div>
        )}
        <main className="main">
          {organizations.isPending && <Loading />}
          {organizations.isError && <ErrorView error={organizations.error} />}
          {organizations.isSuccess && !organization && <h1>{t("home.noOrganizations")}</h1>}
          {organization && <Outlet context={{ organization, showOrganization } satisfies ShellContext} />}
        </main>
      </div>
    </div>
  );
}

/** Who is signed in, their settings, and a way out (the server's sign-out form). */
function Account() {
  const user = $api.useQuery("get", "/v1/user");
  return (
    <form className="account" method="post" action={paths.signOut}>
      {user.data && <span>{t("header.signedInAs", { name: user.data.displayName })}</span>}
      <Link to={paths.account()}>{t("header.account")}</Link>
      <button type="submit">{t("header.signOut")}</button>
    </form>
  );
}
