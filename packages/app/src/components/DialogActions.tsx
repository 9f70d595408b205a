import { t } from "../i18n/index.js";

/** A dialog form's buttons: the one sending it (`submitLabel`, off while `pending`), then Cancel. */
export function DialogActions({
  submitLabel,
  pending,
  onCancel,
  submitClass,
}: {
  submitLabel: string;
  pending: boolean;
  onCancel(): void;
  /** The send button's class: a destructive action says so. */
  submitClass?: string | undefined;
}) {
  return (
    <div className="dialog-actions">
      <button type="submit" className={submitClass} disabled={pending}>
        {submitLabel}
      </button>
      <button type="button" onClick={onCancel}>
        {t("create.cancel")}
      </button>
    </div>
  );
}
