import { Link, useSearchParams } from "react-router";
import { t } from "../../i18n/index.js";

/** The query parameter holding a list's page cursor. */
export const PAGE = "page";

/**
 * Links to a paged list's first and next pages: the cursor lives in the URL (`?page=`), beside the
 * list's filters, so the back button and a shared link show the same page.
 */
export function Pager({ next }: { next: string | undefined }) {
  const [params] = useSearchParams();
  const at = (page: string | undefined) => {
    const query = new URLSearchParams(params);
    if (page === undefined) query.delete(PAGE);
    else query.set(PAGE, page);
    const text = query.toString();
    return text ? `?${text}` : "?";
  };
  if (!params.has(PAGE) && next === undefined) return null;
  return (
    <nav className="pager" aria-label={t("settings.pages")}>
      {params.has(PAGE) && <Link to={at(undefined)}>{t("settings.firstPage")}</Link>}
      {next !== undefined && <Link to={at(next)}>{t("settings.nextPage")}</Link>}
    </nav>
  );
}
