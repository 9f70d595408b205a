import { type FormEvent, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";

/** Search within the space: the words live in the URL (`?q=`), so results are deep-linkable. */
export function SpaceSearch({ spaceId }: { spaceId: string }) {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [words, setWords] = useState(q);
  const id = useId();
  const results = $api.useQuery(
    "get",
    "/v1/spaces/{spaceId}/search",
    { params: { path: { spaceId }, query: { query: q, limit: 20 } } },
    { enabled: q !== "" },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams((was) => {
      const next = new URLSearchParams(was);
      if (words.trim() === "") next.delete("q");
      else next.set("q", words.trim());
      return next;
    });
  };
  return (
    <search className="space-search" aria-label={t("space.search")}>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-q`} className="visually-hidden">
          {t("space.search")}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          placeholder={t("space.search")}
          value={words}
          onChange={(event) => setWords(event.target.value)}
        />
        <button type="submit">{t("space.searchSubmit")}</button>
      </form>
      {q !== "" && (
        <div className="space-search-results">
          {results.isPending && <Loading />}
          {results.isError && <ErrorView error={results.error} />}
          {results.isSuccess && (
            <p role="status">{t("space.searchCount", { count: results.data.count, q })}</p>
          )}
          <ul>
            {results.data?.items.map((result) => (
              <li key={result.id}>
                <Link to={paths.space(spaceId, result.path)}>{result.title}</Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </search>
  );
}
