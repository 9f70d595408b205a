import { errorMessage } from "../api/errors.js";
import { t } from "../i18n/index.js";

/** A failed call, told in words (from the error body's type and message), never as raw JSON. */
export function ErrorView({ error }: { error: unknown }) {
  return (
    <div className="error" role="alert">
      <p className="error-title">{t("error.title")}</p>
      <p>{errorMessage(error)}</p>
    </div>
  );
}

/** A part of the screen still loading. */
export function Loading() {
  return (
    <p className="loading" role="status">
      {t("app.loading")}
    </p>
  );
}
