import { useId } from "react";
import { t } from "../i18n/index.js";

/**
 * A labelled text field that must not be left empty: `empty` (set by its form on submit) marks it
 * invalid and says so, read out at once.
 */
export function TitleField({
  label = t("create.title"),
  value,
  onChange,
  empty,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  empty: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-field`}>{label}</label>
      <input
        id={`${id}-field`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={empty}
        aria-describedby={empty ? `${id}-empty` : undefined}
      />
      {empty && (
        <p id={`${id}-empty`} className="error" role="alert">
          {t("create.emptyTitle")}
        </p>
      )}
    </>
  );
}
