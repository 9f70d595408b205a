import { Link } from "react-router";
import { t } from "../i18n/index.js";
import { paths } from "./paths.js";

export function NotFound() {
  return (
    <main className="not-found">
      <h1>{t("error.not_found")}</h1>
      <p>
        <Link to={paths.home()}>{t("app.name")}</Link>
      </p>
    </main>
  );
}
