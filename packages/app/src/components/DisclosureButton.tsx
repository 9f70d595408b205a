import type { Dispatch, ReactNode, SetStateAction } from "react";

/** A button showing and hiding the element `controls` (a drawer, a panel), saying whether it is open. */
export function DisclosureButton({
  className,
  controls,
  open,
  setOpen,
  children,
}: {
  className: string;
  controls: string;
  open: boolean;
  setOpen: Dispatch<SetStateAction<boolean>>;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => setOpen((was) => !was)}
    >
      {children}
    </button>
  );
}
