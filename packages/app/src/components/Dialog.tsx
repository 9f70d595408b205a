import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal dialog titled `title`, shown while `open`: native `<dialog>` (focus trapped inside, Escape
 * closes it, focus back where it was). Its content is rendered only while open, so it starts afresh.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (open && !element?.open) element?.showModal();
    if (!open && element?.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="create-dialog wide-dialog" aria-labelledby={id} onClose={onClose}>
      {open && (
        <>
          <h2 id={id}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
