import { type FocusEvent, type KeyboardEvent, type Ref, useEffect, useId, useRef, useState } from "react";
import { type MessageKey, t } from "../../i18n/index.js";

export type Action = "rename" | "move" | "delete";

/** An item's actions, in menu order: what is chosen, and its label. */
export type MenuActions<A extends string> = readonly (readonly [A, MessageKey])[];

/** A collection's or a space's actions. */
export const CONTENT_ACTIONS: MenuActions<Action> = [
  ["rename", "content.rename"],
  ["move", "content.move"],
  ["delete", "content.delete"],
];

/**
 * The actions of one item, behind a menu button (WAI-ARIA's menu button pattern): Enter, Space or the
 * arrows open it, the arrows, Home and End move in it, Escape closes it and focus returns to the button.
 */
const menuItemsIn = (container: HTMLElement | null) => [
  ...(container?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

export function ItemMenu<A extends string>({
  title,
  buttonRef,
  onChoose,
  actions,
}: {
  title: string;
  buttonRef: Ref<HTMLButtonElement>;
  onChoose: (action: A) => void;
  actions: MenuActions<A>;
}) {
  const id = useId();
  const [open, setOpen] = useState<"first" | "last" | false>(false);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const items = menuItemsIn(container.current);
    (open === "first" ? items[0] : items.at(-1))?.focus();
  }, [open]);

  const closeToButton = () => {
    setOpen(false);
    container.current?.querySelector<HTMLElement>("[aria-haspopup]")?.focus();
  };
  // Focus (or a click) leaving the button and its menu closes the menu.
  const onBlur = (event: FocusEvent) => {
    if (!container.current?.contains(event.relatedTarget)) setOpen(false);
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    setOpen(event.key === "ArrowDown" ? "first" : "last");
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const items = menuItemsIn(container.current);
    const at = document.activeElement instanceof HTMLElement ? items.indexOf(document.activeElement) : -1;
    const focus = (index: number) => items[(index + items.length) % items.length]?.focus();
    const keys: Record<string, () => void> = {
      ArrowDown: () => focus(at + 1),
      ArrowUp: () => focus(at - 1),
      Home: () => focus(0),
      End: () => focus(items.length - 1),
      Escape: closeToButton,
    };
    const handle = keys[event.key];
    if (handle) {
      event.preventDefault();
      handle();
    } else if (event.key === "Tab") setOpen(false);
  };

  return (
    <div ref={container} className="item-menu">
      <button
        ref={buttonRef}
        type="button"
        className="item-menu-button"
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => (was ? false : "first"))}
        onKeyDown={onButtonKey}
        onBlur={onBlur}
      >
        <span aria-hidden="true">⋯</span>
        <span className="visually-hidden">{t("content.actionsFor", { title })}</span>
      </button>
      {open && (
        <div
          role="menu"
          id={id}
          aria-label={t("content.actionsFor", { title })}
          onKeyDown={onMenuKey}
          onBlur={onBlur}
        >
          {actions.map(([action, label]) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                onChoose(action);
              }}
            >
              {t(label)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
