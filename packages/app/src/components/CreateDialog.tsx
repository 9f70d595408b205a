import { useState } from "react";
import type { Creator } from "../api/create.js";
import { t } from "../i18n/index.js";
import { FormDialog } from "./FormDialog.js";
import { TitleField } from "./TitleField.js";

/**
 * A button (`label`) opening a modal dialog that asks for a title (its field named `fieldLabel`) and
 * creates the item with `creator`; an empty title is told, the server's refusals in words.
 */
export function CreateDialog({
  label,
  creator,
  fieldLabel,
}: {
  label: string;
  creator: Creator;
  fieldLabel?: string;
}) {
  const [title, setTitle] = useState("");
  const [empty, setEmpty] = useState(false);
  return (
    <FormDialog
      label={label}
      submitLabel={t("create.submit")}
      pending={creator.pending}
      error={creator.error}
      onOpen={() => {
        creator.reset();
        setTitle("");
        setEmpty(false);
      }}
      onSubmit={(close) => {
        const trimmed = title.trim();
        setEmpty(trimmed === "");
        if (trimmed !== "") creator.create(trimmed, close);
      }}
    >
      <TitleField label={fieldLabel} value={title} onChange={setTitle} empty={empty} />
    </FormDialog>
  );
}
