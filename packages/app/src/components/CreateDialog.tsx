import { type FormEvent, useId, useRef, useState } from "react";
import type { Creator } from "../api/create.js";
import { t } from "../i18n/index.js";
import { ErrorView } from "./ErrorView.js";

/**
 * A button (`label`) opening a modal dialog that asks for a title and creates the item with `creator`.
 * Native `<dialog>`: focus is trapped inside, Escape closes it, focus returns to the button.
 */
export function CreateDialog({ label, creator }: { label: string; creator: Creator }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState("");
  const [empty, setEmpty] = useState(false);
  const id = useId();

  const open = () => {
    creator.reset();
    setTitle("");
    setEmpty(false);
    dialog.current?.showModal();
    field.current?.focus();
  };
  const close = () => dialog.current?.close();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    setEmpty(trimmed === "");
    if (trimmed !== "") creator.create(trimmed, close);
  };

  return (
    <>
      <button type="button" onClick={open}>
        {label}
      </button>
      <dialog ref={dialog} className="create-dialog" aria-labelledby={`${id}-heading`}>
        <form onSubmit={submit} noValidate>
          <h2 id={`${id}-heading`}>{label}</h2>
          <label htmlFor={`${id}-title`}>{t("create.title")}</label>
          <input
            ref={field}
            id={`${id}-title`}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            aria-invalid={empty}
            aria-describedby={empty ? `${id}-empty` : undefined}
          />
          {empty && (
            <p id={`${id}-empty`} className="error" role="alert">
              {t("create.emptyTitle")}
            </p>
          )}
          {creator.error != null && <ErrorView error={creator.error} />}
          <div className="dialog-actions">
            <button type="submit" disabled={creator.pending}>
              {t("create.submit")}
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
