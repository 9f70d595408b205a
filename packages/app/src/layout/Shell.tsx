import { Link, Outlet, useSearchParams } from "react-router";
import { $api } from "../api/client.js";
import { useOrganizations } from "../api/pages.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { paths } from "../routes/paths.js";
import { ContentNav } from "./ContentNav.js";
import { CreateContent } from "./CreateContent.js";
import { OrganizationSwitcher } from "./OrganizationSwitcher.js";
import { SearchBox } from "./SearchBox.js";
import type { ShellContext } from "./shell-context.js";

/** The frame of every screen: header (organization, search, account), the Content navigation, main. */
export function Shell() {
  const [params] = useSearchParams();
  const organizations = useOrganizations();
  const list = organizations.data ?? [];
  const wanted = params.get("org");
  const organization = list.find((org) => org.id === wanted) ?? list[0];

  return (
    <div className="shell">
      <header className="header">
        <Link className="brand" to={paths.home(organization?.id)}>
          {organization?.title ?? t("app.name")}
        </Link>
        {organization && list.length > 1 && (
          <OrganizationSwitcher organizations={list} current={organization} />
        )}
        {organization && <SearchBox organizationId={organization.id} />}
        <Account />
      </header>
      <div className="body">
        {organization && (
          <div className="sidebar">
            <ContentNav organizationId={organization.id} />
            <CreateContent organizationId={organization.id} />
          </div>
        )}
        <main className="main">
          {organizations.isPending && <Loading />}
          {organizations.isError && <ErrorView error={organizations.error} />}
          {organizations.isSuccess && !organization && <h1>{t("home.noOrganizations")}</h1>}
          {organization && <Outlet context={{ organization } satisfies ShellContext} />}
        </main>
      </div>
    </div>
  );
}

/** Who is signed in, and a way out (the server's sign-out form). */
function Account() {
  const user = $api.useQuery("get", "/v1/user");
  return (
    <form className="account" method="post" action={paths.signOut}>
      {user.data && <span>{t("header.signedInAs", { name: user.data.displayName })}</span>}
      <button type="submit">{t("header.signOut")}</button>
    </form>
  );
}
