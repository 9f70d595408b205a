import { Link } from "react-router";
import { t } from "../i18n/index.js";
import { paths } from "./paths.js";

/** A path the app has no screen for. */
export function NotFound() {
  return (
    <>
      <h1>{t("error.not_found")}</h1>
      <p>
        <Link to={paths.home}>{t("nav.home")}</Link>
      </p>
    </>
  );
}
