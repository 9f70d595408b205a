import { useQueryClient } from "@tanstack/react-query";
import { changedElsewhere, errorMessage } from "../api/errors.js";
import { t } from "../i18n/index.js";

/**
 * A failed call, told in words (from the error body's type and message), never as raw JSON. A write
 * refused because someone else changed the item first (412) offers to reload what is shown.
 */
export function ErrorView({ error }: { error: unknown }) {
  const queryClient = useQueryClient();
  const refusedAsStale = changedElsewhere(error);
  return (
    <div className="error" role="alert">
      <p className="error-title">{t("error.title")}</p>
      <p>{refusedAsStale ? t("error.precondition_failed") : errorMessage(error)}</p>
      {refusedAsStale && (
        <button type="button" onClick={() => queryClient.invalidateQueries()}>
          {t("error.reload")}
        </button>
      )}
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
