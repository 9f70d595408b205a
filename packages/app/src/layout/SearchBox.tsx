import { useId } from "react";
import { t } from "../i18n/index.js";
import { paths } from "../routes/paths.js";

/** The organization's search: for now, the server's search preview (a full page load). */
export function SearchBox({ organizationId }: { organizationId: string }) {
  const id = useId();
  return (
    <search className="search">
      <form method="get" action={paths.searchPreview(organizationId)}>
        <label htmlFor={id}>{t("search.label")}</label>
        <input id={id} name="q" type="search" required />
        <button type="submit">{t("search.submit")}</button>
      </form>
    </search>
  );
}
