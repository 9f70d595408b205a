import type { Schema } from "@quire/client";
import { type FormEvent, useId } from "react";
import { Link, useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import "./content.css";

/**
 * Search across the organization's spaces: the words (`q`) and the page of results (`page`, the API's
 * cursor) live in the URL, so a search can be linked to and the back button returns to it.
 */
export default function SearchScreen() {
  const { organization } = useShell();
  const [params, setParams] = useSearchParams();
  const q = params.get("q")?.trim() ?? "";
  const page = params.get("page") ?? undefined;
  const id = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = new FormData(event.currentTarget).get("q");
    if (typeof words === "string" && words.trim() !== "") setParams({ q: words.trim() });
  };

  return (
    <>
      <h1>{t("search.heading")}</h1>
      {/* Keyed by the words, so the field shows what the header's search (or the back button) asked for. */}
      <form key={q} className="search-words" onSubmit={submit}>
        <label htmlFor={id}>{t("search.words")}</label>
        <input id={id} name="q" type="search" defaultValue={q} />
        <button type="submit">{t("search.find")}</button>
      </form>
      {q === "" ? (
        <p>{t("search.noQuery")}</p>
      ) : (
        <Results organizationId={organization.id} q={q} page={page} />
      )}
    </>
  );
}

function Results({
  organizationId,
  q,
  page,
}: {
  organizationId: string;
  q: string;
  page: string | undefined;
}) {
  const results = $api.useQuery("get", "/v1/orgs/{organizationId}/search", {
    params: { path: { organizationId }, query: { query: q, page } },
  });
  if (results.isPending) return <Loading />;
  if (results.isError) return <ErrorView error={results.error} />;
  const { items, next } = results.data;
  return (
    <section aria-labelledby="search-results-heading">
      <h2 id="search-results-heading" className="visually-hidden">
        {t("search.resultsFor", { q })}
      </h2>
      {items.length === 0 ? (
        <p role="status">{t("search.empty", { q })}</p>
      ) : (
        <ul className="search-results">
          {items.map((space) => (
            <li key={space.id}>
              <h2>
                <Link to={paths.space(space.id)}>{space.title}</Link>
              </h2>
              <ul className="search-pages">
                {space.pages.map((found) => (
                  <FoundPage key={found.id} spaceId={space.id} page={found} />
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {(next || page) && (
        <p className="search-more">
          {next && (
            <Link to={{ search: `?${new URLSearchParams({ q, page: next.page })}` }}>{t("search.next")}</Link>
          )}
          {page && <Link to={{ search: `?${new URLSearchParams({ q })}` }}>{t("search.first")}</Link>}
        </p>
      )}
    </section>
  );
}

/** A page that matches: its title (a link to it), where it is, its description and its matching sections. */
function FoundPage({ spaceId, page }: { spaceId: string; page: Schema<"SearchPageResult"> }) {
  const href = paths.space(spaceId, page.path);
  return (
    <li>
      <h3>
        <Link to={href}>{page.title}</Link>
      </h3>
      {page.ancestors.length > 0 && (
        <p className="search-path">
          {t("search.in", { path: page.ancestors.map((a) => a.title).join(" › ") })}
        </p>
      )}
      {page.description && <p className="search-description">{page.description}</p>}
      {page.sections && page.sections.length > 0 && (
        <ul className="search-sections">
          {page.sections.map((section) => {
            // A section's path is its page's, then `#` and its heading's anchor (none before the first heading).
            const anchor = section.path.split("#")[1];
            return (
              <li key={section.id}>
                {section.title && <Link to={anchor ? `${href}#${anchor}` : href}>{section.title}</Link>}
                {section.body && <p>{section.body}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
