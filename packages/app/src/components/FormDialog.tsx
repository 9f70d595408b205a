import { type FormEvent, type ReactNode, useId, useRef } from "react";
import { t } from "../i18n/index.js";
import { ErrorView } from "./ErrorView.js";

interface Props {
  /** The button's text and the dialog's heading. */
  label: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  /** Resets the form's fields and the mutation's error, when the dialog opens. */
  onOpen(): void;
  /** Submits the form; `close` closes the dialog (once the write is done). */
  onSubmit(close: () => void): void;
  children: ReactNode;
}

/**
 * A button opening a modal form (native `<dialog>`: focus stays inside, Escape closes it and focus
 * returns to the button); the first field has focus when it opens.
 */
export function FormDialog({ label, submitLabel, pending, error, onOpen, onSubmit, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const close = () => dialog.current?.close();
  const open = () => {
    onOpen();
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLElement>("input, select, textarea")?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(close);
  };
  return (
    <>
      <button type="button" onClick={open}>
        {label}
      </button>
      <dialog ref={dialog} className="create-dialog" aria-labelledby={`${id}-heading`}>
        <form onSubmit={submit} noValidate>
          <h2 id={`${id}-heading`}>{label}</h2>
          {children}
          {error != null && <ErrorView error={error} />}
          <div className="dialog-actions">
            <button type="submit" disabled={pending}>
              {submitLabel}
            </button>
            <button type="button" onClick={close}>
              {t("create.cancel")}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
