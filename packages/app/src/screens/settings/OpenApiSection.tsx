import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ConfirmDialog } from "../../components/ConfirmDialog.js";
import { ItemList } from "../../components/ItemList.js";
import { MutationDialog } from "../../components/MutationDialog.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { formatTime } from "./format.js";

type Spec = Schema<"OpenAPISpec">;

const SPECS = "/v1/orgs/{organizationId}/openapi";
const SPEC = "/v1/orgs/{organizationId}/openapi/{specSlug}";

const STATES: Record<Spec["processingState"], MessageKey> = {
  pending: "settings.openapi.state.pending",
  progress: "settings.openapi.state.progress",
  complete: "settings.openapi.state.complete",
};

interface Draft {
  slug: string;
  from: "url" | "text";
  url: string;
  text: string;
}
const emptyDraft: Draft = { slug: "", from: "url", url: "", text: "" };

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", SPECS] });
}

/** The organization's OpenAPI specifications: added from a URL or as text, or deleted. */
export function OpenApiSection({ organizationId }: { organizationId: string }) {
  const specs = $api.useQuery("get", SPECS, { params: { path: { organizationId }, query: { limit: 100 } } });
  return (
    <>
      <h2>{t("settings.openapi")}</h2>
      <p>{t("settings.openapi.intro")}</p>
      <AddSpec organizationId={organizationId} />
      <ItemList
        className="settings-list"
        query={specs}
        empty={t("settings.openapi.empty")}
        item={(spec) => (
          <li key={spec.id}>
            <h3>{spec.slug}</h3>
            <p className="meta">
              {t(STATES[spec.processingState])}
              {spec.lastProcessErrorCode && ` · ${spec.lastProcessErrorCode}`}
              {spec.lastProcessedAt && ` · ${formatTime(spec.lastProcessedAt)}`}
            </p>
            {spec.sourceURL && <p>{spec.sourceURL}</p>}
            <div className="item-actions">
              <DeleteSpec organizationId={organizationId} spec={spec} />
            </div>
          </li>
        )}
      />
    </>
  );
}

function AddSpec({ organizationId }: { organizationId: string }) {
  const refresh = useRefresh();
  const id = useId();
  const [draft, setDraft] = useState(emptyDraft);
  const create = $api.useMutation("post", SPECS, { onSuccess: refresh });
  return (
    <MutationDialog
      label={t("settings.openapi.add")}
      submitLabel={t("settings.openapi.addSubmit")}
      write={create}
      onOpen={() => setDraft(emptyDraft)}
      variables={() => ({
        params: { path: { organizationId } },
        body: {
          slug: draft.slug.trim(),
          source: draft.from === "url" ? { url: draft.url.trim() } : { text: draft.text },
        },
      })}
    >
      <label htmlFor={`${id}-slug`}>{t("settings.openapi.slug")}</label>
      <input
        id={`${id}-slug`}
        value={draft.slug}
        onChange={(event) => setDraft({ ...draft, slug: event.target.value })}
      />
      <fieldset className="choice">
        <legend>{t("settings.openapi.from")}</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-from`}
            checked={draft.from === "url"}
            onChange={() => setDraft({ ...draft, from: "url" })}
          />
          {t("settings.openapi.fromUrl")}
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-from`}
            checked={draft.from === "text"}
            onChange={() => setDraft({ ...draft, from: "text" })}
          />
          {t("settings.openapi.fromText")}
        </label>
      </fieldset>
      {draft.from === "url" ? (
        <>
          <label htmlFor={`${id}-url`}>{t("settings.openapi.url")}</label>
          <input
            id={`${id}-url`}
            type="url"
            value={draft.url}
            onChange={(event) => setDraft({ ...draft, url: event.target.value })}
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-text`}>{t("settings.openapi.text")}</label>
          <textarea
            id={`${id}-text`}
            rows={8}
            value={draft.text}
            onChange={(event) => setDraft({ ...draft, text: event.target.value })}
          />
        </>
      )}
    </MutationDialog>
  );
}

function DeleteSpec({ organizationId, spec }: { organizationId: string; spec: Spec }) {
  const refresh = useRefresh();
  const remove = $api.useMutation("delete", SPEC, { onSuccess: refresh });
  return (
    <ConfirmDialog
      label={t("settings.delete")}
      context={spec.slug}
      heading={t("settings.openapi.deleteHeading")}
      warning={t("settings.openapi.deleteWarning", { slug: spec.slug })}
      write={remove}
      variables={() => ({ params: { path: { organizationId, specSlug: spec.slug } } })}
    />
  );
}
