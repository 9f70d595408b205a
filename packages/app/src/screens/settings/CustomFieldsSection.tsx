import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ConfirmDialog } from "../../components/ConfirmDialog.js";
import { ItemList } from "../../components/ItemList.js";
import { MutationDialog } from "../../components/MutationDialog.js";
import { type MessageKey, t } from "../../i18n/index.js";

type Field = Schema<"CustomField">;
type FieldType = Schema<"CustomFieldType">;

const FIELDS = "/v1/orgs/{organizationId}/custom-fields";
const FIELD = "/v1/orgs/{organizationId}/custom-fields/{fieldName}";

const TYPES: Record<FieldType, MessageKey> = {
  text: "settings.field.type.text",
  number: "settings.field.type.number",
  boolean: "settings.field.type.boolean",
  tags: "settings.field.type.tags",
  "select:single": "settings.field.type.selectSingle",
  "select:multi": "settings.field.type.selectMulti",
};
const isType = (value: string): value is FieldType => value in TYPES;
/** Only the select types take options (the others refuse them). */
const hasOptions = (type: FieldType) => type.startsWith("select:");

interface Draft {
  name: string;
  title: string;
  type: FieldType;
  description: string;
  options: string;
}
const emptyDraft: Draft = { name: "", title: "", type: "text", description: "", options: "" };

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", FIELDS] });
}

/** The fields every space of the organization can fill in: to add or delete. */
export function CustomFieldsSection({ organizationId }: { organizationId: string }) {
  const fields = $api.useQuery("get", FIELDS, {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  return (
    <>
      <h2>{t("settings.customFields")}</h2>
      <p>{t("settings.customFields.intro")}</p>
      <CreateField organizationId={organizationId} />
      <ItemList
        className="settings-list"
        query={fields}
        empty={t("settings.customFields.empty")}
        item={(field) => (
          <li key={field.id}>
            <h3>{field.title || field.name}</h3>
            <p className="meta">
              {field.name} · {t(TYPES[field.type])}
              {field.options && field.options.length > 0 && ` · ${field.options.join(", ")}`}
            </p>
            {field.description && <p>{field.description}</p>}
            <div className="item-actions">
              <DeleteField organizationId={organizationId} field={field} />
            </div>
          </li>
        )}
      />
    </>
  );
}

function CreateField({ organizationId }: { organizationId: string }) {
  const refresh = useRefresh();
  const id = useId();
  const [draft, setDraft] = useState(emptyDraft);
  const create = $api.useMutation("post", FIELDS, { onSuccess: refresh });
  const options = draft.options
    .split("\n")
    .map((option) => option.trim())
    .filter((option) => option !== "");
  return (
    <MutationDialog
      label={t("settings.field.new")}
      submitLabel={t("settings.create")}
      write={create}
      onOpen={() => setDraft(emptyDraft)}
      variables={() => ({
        params: { path: { organizationId } },
        body: {
          name: draft.name.trim(),
          type: draft.type,
          ...(draft.title.trim() && { title: draft.title.trim() }),
          ...(draft.description.trim() && { description: draft.description.trim() }),
          ...(hasOptions(draft.type) && { options }),
        },
      })}
    >
      <label htmlFor={`${id}-name`}>{t("settings.field.name")}</label>
      <input
        id={`${id}-name`}
        value={draft.name}
        onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        aria-describedby={`${id}-name-hint`}
      />
      <p id={`${id}-name-hint`} className="hint">
        {t("settings.field.nameHint")}
      </p>
      <label htmlFor={`${id}-title`}>{t("settings.field.title")}</label>
      <input
        id={`${id}-title`}
        value={draft.title}
        onChange={(event) => setDraft({ ...draft, title: event.target.value })}
      />
      <label htmlFor={`${id}-type`}>{t("settings.field.type")}</label>
      <select
        id={`${id}-type`}
        value={draft.type}
        onChange={(event) => isType(event.target.value) && setDraft({ ...draft, type: event.target.value })}
      >
        {Object.entries(TYPES).map(([value, label]) => (
          <option key={value} value={value}>
            {t(label)}
          </option>
        ))}
      </select>
      {hasOptions(draft.type) && (
        <>
          <label htmlFor={`${id}-options`}>{t("settings.field.options")}</label>
          <textarea
            id={`${id}-options`}
            rows={4}
            value={draft.options}
            onChange={(event) => setDraft({ ...draft, options: event.target.value })}
          />
        </>
      )}
      <label htmlFor={`${id}-description`}>{t("settings.field.description")}</label>
      <input
        id={`${id}-description`}
        value={draft.description}
        onChange={(event) => setDraft({ ...draft, description: event.target.value })}
      />
    </MutationDialog>
  );
}

function DeleteField({ organizationId, field }: { organizationId: string; field: Field }) {
  const refresh = useRefresh();
  const remove = $api.useMutation("delete", FIELD, { onSuccess: refresh });
  return (
    <ConfirmDialog
      label={t("settings.delete")}
      context={field.title || field.name}
      heading={t("settings.field.deleteHeading")}
      warning={t("settings.field.deleteWarning", { title: field.title || field.name })}
      write={remove}
      variables={() => ({ params: { path: { organizationId, fieldName: field.name } } })}
    />
  );
}
