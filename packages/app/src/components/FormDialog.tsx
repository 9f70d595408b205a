import { type FormEvent, type ReactNode, useId, useRef } from "react";
import { DialogActions } from "./DialogActions.js";
import { ErrorView } from "./ErrorView.js";

export interface FormDialogProps {
  /** The opening button's text, and the dialog's heading unless `heading` is given. */
  label: string;
  /** Which item the button acts on, for a screen reader (buttons of a list otherwise share a name). */
  context?: string;
  heading?: string;
  /** The submit button's text. */
  submitLabel: string;
  /** Runs when the form is sent; calls `close` once the write succeeded. */
  onSubmit(close: () => void): void;
  /** Runs when the dialog opens: reset the fields and the mutation's error. */
  onOpen?(): void;
  /** Runs when the dialog closes, however (sent, cancelled, Escape). */
  onClose?(): void;
  pending: boolean;
  error: unknown;
  /** A destructive action: its buttons say so. */
  danger?: boolean;
  children?: ReactNode;
}

/**
 * A button opening a modal `<dialog>` holding a form: focus is trapped inside and on its first field,
 * Escape closes it and focus returns to the button. A create, edit or delete dialog is one of these.
 */
export function FormDialog(props: FormDialogProps) {
  const {
    label,
    context,
    heading = label,
    submitLabel,
    onSubmit,
    onOpen,
    onClose,
    pending,
    error,
    danger,
    children,
  } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const close = () => dialog.current?.close();
  const open = () => {
    onOpen?.();
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLElement>("input, select, textarea")?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(close);
  };

  return (
    <>
      <button type="button" className={danger ? "danger" : undefined} onClick={open}>
        {label}
        {context && <span className="visually-hidden"> {context}</span>}
      </button>
      <dialog
        ref={dialog}
        className="create-dialog wide-dialog"
        aria-labelledby={`${id}-heading`}
        onClose={onClose}
      >
        {/* The server checks every field: its refusal is told in words below. */}
        <form onSubmit={submit} noValidate>
          <h2 id={`${id}-heading`}>{heading}</h2>
          {children}
          {error != null && <ErrorView error={error} />}
          <DialogActions
            submitLabel={submitLabel}
            pending={pending}
            onCancel={close}
            submitClass={danger ? "danger" : undefined}
          />
        </form>
      </dialog>
    </>
  );
}
