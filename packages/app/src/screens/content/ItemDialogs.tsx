import { useId, useState } from "react";
import { TitleField } from "../../components/TitleField.js";
import { t } from "../../i18n/index.js";
import type { MoveTarget } from "../../lib/content-tree.js";
import { ContentDialog } from "./ContentDialog.js";

/** What the dialogs show of the item an action is on: its title, and for a move where it is. */
interface Item {
  title: string;
  parent?: string;
}

/** Another item where one moves to: it can go after it. */
export interface Sibling {
  id: string;
  title: string;
}

/** Asks for a new title of `item`; an empty one is told, an unchanged one changes nothing. */
export function RenameDialog({
  item,
  onRename,
  onClose,
}: {
  item: Item;
  onRename: (title: string) => void;
  onClose: () => void;
}) {
  const [title, setTitle] = useState(item.title);
  const [empty, setEmpty] = useState(false);
  const submit = () => {
    const trimmed = title.trim();
    setEmpty(trimmed === "");
    if (trimmed === "") return false;
    if (trimmed !== item.title) onRename(trimmed);
    return true;
  };
  return (
    <ContentDialog
      heading={t("content.renameHeading", { title: item.title })}
      submitLabel={t("content.save")}
      onSubmit={submit}
      onClose={onClose}
    >
      <TitleField value={title} onChange={setTitle} empty={empty} />
    </ContentDialog>
  );
}

/**
 * Asks where `item` goes: the top level (`topLevel` names it) or one of `targets` (the keyboard's way
 * to drag it); with `siblingsIn`, also where among the pages there (`at`, from 0; undefined: where it
 * is, or last under another parent).
 */
export function MoveDialog({
  item,
  targets,
  topLevel = t("content.topLevel"),
  siblingsIn,
  onMove,
  onClose,
}: {
  item: Item;
  targets: readonly MoveTarget[];
  topLevel?: string;
  /** The others under a parent (undefined: the top level), in order. */
  siblingsIn?: (parent: string | undefined) => readonly Sibling[];
  onMove: (parent: string | undefined, at?: number) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [parent, setParent] = useState(item.parent ?? "");
  const [at, setAt] = useState("");
  const into = parent === "" ? undefined : parent;
  const stays = parent === (item.parent ?? "");
  const submit = () => {
    if (!stays || at !== "") onMove(into, at === "" ? undefined : Number(at));
    return true;
  };
  return (
    <ContentDialog
      heading={t("content.moveHeading", { title: item.title })}
      submitLabel={t("content.move")}
      onSubmit={submit}
      onClose={onClose}
    >
      <label htmlFor={id}>{t("content.moveTo")}</label>
      <select
        id={id}
        value={parent}
        onChange={(event) => {
          setParent(event.target.value);
          setAt("");
        }}
      >
        <option value="">{topLevel}</option>
        {targets.map((target) => (
          <option key={target.id} value={target.id}>
            {target.label}
          </option>
        ))}
      </select>
      {siblingsIn && (
        <>
          <label htmlFor={`${id}-at`}>{t("content.position")}</label>
          <select id={`${id}-at`} value={at} onChange={(event) => setAt(event.target.value)}>
            <option value="">{stays ? t("content.positionKept") : t("content.positionLast")}</option>
            <option value="0">{t("content.positionFirst")}</option>
            {siblingsIn(into).map((sibling, index) => (
              <option key={sibling.id} value={index + 1}>
                {t("content.positionAfter", { title: sibling.title })}
              </option>
            ))}
          </select>
        </>
      )}
    </ContentDialog>
  );
}

/** Asks before deleting what cannot be restored; `note` says what becomes of what it holds. */
export function DeleteDialog({
  item,
  note,
  onDelete,
  onClose,
}: {
  item: Item;
  note: string;
  onDelete: () => void;
  onClose: () => void;
}) {
  return (
    <ContentDialog
      heading={t("content.deleteHeading", { title: item.title })}
      submitLabel={t("content.delete")}
      onSubmit={() => {
        onDelete();
        return true;
      }}
      onClose={onClose}
    >
      <p>{note}</p>
    </ContentDialog>
  );
}
