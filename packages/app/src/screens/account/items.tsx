import { type ReactNode, useState } from "react";
import { Dialog } from "../../components/Dialog.js";

/**
 * The item a section's dialog acts on (a token revoked, a factor removed), and what the section says
 * of the last action done: said afresh as each action starts.
 */
export function useItemAction<Item>() {
  const [item, setItem] = useState<Item>();
  const [said, setSaid] = useState("");
  return {
    item,
    said,
    hush: () => setSaid(""),
    start: (next: Item) => {
      setSaid("");
      setItem(next);
    },
    cancel: () => setItem(undefined),
    done: (message: string) => {
      setItem(undefined);
      setSaid(message);
    },
  };
}

type ItemAction<Item> = ReturnType<typeof useItemAction<Item>>;

/** The person's items of one kind, each with its text and one button (`action`) described by it. */
export function AccountList<Item extends { id: string }>({
  id,
  items,
  action,
  onAction,
  text,
}: {
  /** The section's id: its heading names the list. */
  id: string;
  items: readonly Item[];
  action: string;
  onAction(item: Item): void;
  text(item: Item): ReactNode;
}) {
  return (
    <ul className="account-list" aria-labelledby={`${id}-heading`}>
      {items.map((item) => (
        <li key={item.id}>
          <div className="account-item-text" id={`${id}-${item.id}`}>
            {text(item)}
          </div>
          <button type="button" aria-describedby={`${id}-${item.id}`} onClick={() => onAction(item)}>
            {action}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The dialog of `action`, open while it has an item: titled and filled for that item. */
export function ItemDialog<Item>({
  action,
  title,
  children,
}: {
  action: ItemAction<Item>;
  title(item: Item): string;
  children(item: Item): ReactNode;
}) {
  const { item } = action;
  return (
    <Dialog open={item !== undefined} onClose={action.cancel} title={item === undefined ? "" : title(item)}>
      {item !== undefined && children(item)}
    </Dialog>
  );
}
