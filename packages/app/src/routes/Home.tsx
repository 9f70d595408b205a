import { Link } from "react-router";
import { useSpaces } from "../api/pages.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { useShell } from "../layout/shell-context.js";
import { paths } from "./paths.js";

/** How many spaces the home lists, most recently changed first. */
const RECENT = 8;

/**
 * An organization's home: its title, the spaces changed last, and the first steps of a team (create
 * content from the sidebar, invite people, publish a site), each a link to where it is done.
 */
export default function Home() {
  const { organization } = useShell();
  const spaces = useSpaces(organization.id);
  const recent = [...(spaces.data ?? [])]
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, RECENT);
  return (
    <>
      <h1>{organization.title}</h1>
      <section aria-labelledby="home-recent">
        <h2 id="home-recent">{t("home.recent")}</h2>
        {spaces.isPending && <Loading />}
        {spaces.isError && <ErrorView error={spaces.error} />}
        {spaces.isSuccess && recent.length === 0 && <p>{t("home.intro")}</p>}
        {recent.length > 0 && (
          <ul className="home-spaces">
            {recent.map((space) => (
              <li key={space.id}>
                <Link to={paths.space(space.id)}>{space.title}</Link>
                <span className="home-meta">
                  {t("home.updated", { date: new Date(space.updatedAt).toLocaleDateString() })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="home-next">
        <h2 id="home-next">{t("home.next")}</h2>
        <ul className="home-steps">
          <li>
            <Link to={paths.people(organization.id, "invites")}>{t("home.invite")}</Link>
          </li>
          <li>
            <Link to={paths.sites(organization.id)}>{t("home.publish")}</Link>
          </li>
          <li>
            <Link to={paths.search(organization.id)}>{t("home.search")}</Link>
          </li>
        </ul>
      </section>
    </>
  );
}
