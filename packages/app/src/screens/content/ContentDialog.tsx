import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { t } from "../../i18n/index.js";

/**
 * A modal form, open while it is rendered: native `<dialog>` (focus trapped inside, Escape closes it),
 * focus on its first field (else its first button), `onClose` however it closes. `onSubmit` says
 * whether it is done (it closes) or has told what is wrong (it stays).
 */
export function ContentDialog({
  heading,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: {
  heading: string;
  submitLabel: string;
  onSubmit: () => boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const shown = dialog.current;
    if (!shown) return;
    shown.showModal();
    shown.querySelector<HTMLElement>("input, select, button")?.focus();
    return () => shown.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (onSubmit()) dialog.current?.close();
  };
  return (
    <dialog ref={dialog} className="create-dialog" aria-labelledby={id} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 id={id}>{heading}</h2>
        {children}
        <div className="dialog-actions">
          <button type="submit">{submitLabel}</button>
          <button type="button" onClick={() => dialog.current?.close()}>
            {t("create.cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
