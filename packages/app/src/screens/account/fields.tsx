import { useId } from "react";
import { errorType } from "../../api/errors.js";
import { ErrorView } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";

/**
 * The current password, which proves the person holds the account before a change. Optional: an
 * account signed in with links has none.
 */
export function CurrentPasswordField({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="account-field">
      <label htmlFor={id}>{t("account.password.current")}</label>
      <input
        id={id}
        type="password"
        autoComplete="current-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="account-hint">
        {t("account.currentPasswordHint")}
      </p>
    </div>
  );
}

/**
 * A refused account change, in words: the server answers 403 when the current password is wrong, which
 * the generic view would call "not allowed to see"; `forbidden` says what 403 means here.
 */
export function ChangeError({ error, forbidden }: { error: unknown; forbidden: string }) {
  if (errorType(error) === "forbidden")
    return (
      <p className="error" role="alert">
        {forbidden}
      </p>
    );
  return <ErrorView error={error} />;
}
