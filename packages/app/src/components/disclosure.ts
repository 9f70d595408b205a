import { useId, useState } from "react";

/**
 * One element a button shows and hides (a drawer, a panel): its `id`, whether it is `open`, and the
 * props of the button (`toggle`) that says so and flips it.
 */
export function useDisclosure() {
  const id = useId();
  const [open, setOpen] = useState(false);
  const toggle = {
    type: "button",
    "aria-expanded": open,
    "aria-controls": id,
    onClick: () => setOpen((was) => !was),
  } as const;
  return { id, open, setOpen, toggle };
}
