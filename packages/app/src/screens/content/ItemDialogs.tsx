import { useId, useState } from "react";
import { TitleField } from "../../components/TitleField.js";
import { t } from "../../i18n/index.js";
import type { MoveTarget } from "../../lib/content-tree.js";
import { ContentDialog } from "./ContentDialog.js";
import type { Target } from "./content-actions.js";

/** Asks for a new title of `item`; an empty one is told, an unchanged one changes nothing. */
export function RenameDialog({
  item,
  onRename,
  onClose,
}: {
  item: Target;
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

/** Asks where `item` goes: the top level or one of `targets` (the keyboard's way to drag it). */
export function MoveDialog({
  item,
  targets,
  onMove,
  onClose,
}: {
  item: Target;
  targets: readonly MoveTarget[];
  onMove: (parent: string | undefined) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [parent, setParent] = useState(item.parent ?? "");
  const submit = () => {
    if (parent !== (item.parent ?? "")) onMove(parent === "" ? undefined : parent);
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
      <select id={id} value={parent} onChange={(event) => setParent(event.target.value)}>
        <option value="">{t("content.topLevel")}</option>
        {targets.map((target) => (
          <option key={target.id} value={target.id}>
            {target.label}
          </option>
        ))}
      </select>
    </ContentDialog>
  );
}

/** Asks before deleting a collection, which cannot be restored (its contents move up, not away). */
export function DeleteCollectionDialog({
  item,
  onDelete,
  onClose,
}: {
  item: Target;
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
      <p>{t("content.deleteCollectionNote")}</p>
    </ContentDialog>
  );
}
