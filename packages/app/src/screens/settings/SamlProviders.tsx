import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";

type Provider = Schema<"SamlProvider">;

const PROVIDERS = "/v1/orgs/{organizationId}/saml";
const PROVIDER = "/v1/orgs/{organizationId}/saml/{samlProviderId}";

interface Draft {
  label: string;
  entityID: string;
  ssoURL: string;
  certificate: string;
  defaultRole: Role | null;
}

const emptyDraft: Draft = { label: "", entityID: "", ssoURL: "", certificate: "", defaultRole: "read" };
const draftOf = (provider: Provider): Draft => ({
  label: provider.label,
  entityID: provider.entityID ?? "",
  ssoURL: provider.ssoURL ?? "",
  certificate: provider.certificate ?? "",
  defaultRole: provider.defaultRole ?? null,
});

/** The fields sent: a field left empty is not set (the provider stays pending until all three are). */
const bodyOf = (draft: Draft) => ({
  label: draft.label.trim(),
  ...(draft.entityID.trim() && { entityID: draft.entityID.trim() }),
  ...(draft.ssoURL.trim() && { ssoURL: draft.ssoURL.trim() }),
  ...(draft.certificate.trim() && { certificate: draft.certificate.trim() }),
  defaultRole: draft.defaultRole,
});

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", PROVIDERS] });
}

/** The organization's SAML identity providers: what each needs to know of Quire, to add, edit or delete. */
export function SamlProviders({ organizationId }: { organizationId: string }) {
  const providers = $api.useQuery("get", PROVIDERS, {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  const refresh = useRefresh();
  const [draft, setDraft] = useState(emptyDraft);
  const create = $api.useMutation("post", PROVIDERS, { onSuccess: refresh });
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{t("settings.saml")}</h3>
      <FormDialog
        label={t("settings.saml.new")}
        submitLabel={t("settings.create")}
        pending={create.isPending}
        error={create.error}
        onOpen={() => {
          create.reset();
          setDraft(emptyDraft);
        }}
        onSubmit={(close) =>
          create.mutate({ params: { path: { organizationId } }, body: bodyOf(draft) }, { onSuccess: close })
        }
      >
        <SamlFields draft={draft} onChange={setDraft} />
      </FormDialog>
      {providers.isPending && <Loading />}
      {providers.isError && <ErrorView error={providers.error} />}
      {providers.data?.items.length === 0 && <p>{t("settings.saml.empty")}</p>}
      <ul className="settings-list">
        {providers.data?.items.map((provider) => (
          <li key={provider.id}>
            <h4>{provider.label}</h4>
            <p className="meta">
              {provider.status === "active" ? t("settings.saml.active") : t("settings.saml.pending")}
            </p>
            <dl>
              <dt>{t("settings.saml.acsURL")}</dt>
              <dd>{provider.service.acsURL}</dd>
              <dt>{t("settings.saml.serviceEntityID")}</dt>
              <dd>{provider.service.entityID}</dd>
            </dl>
            <div className="item-actions">
              <EditSaml organizationId={organizationId} provider={provider} />
              <DeleteSaml organizationId={organizationId} provider={provider} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SamlFields({ draft, onChange }: { draft: Draft; onChange(draft: Draft): void }) {
  const id = useId();
  const text = (name: "label" | "entityID" | "ssoURL", label: string) => (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        value={draft[name]}
        onChange={(event) => onChange({ ...draft, [name]: event.target.value })}
      />
    </>
  );
  return (
    <>
      {text("label", t("settings.sso.label"))}
      {text("entityID", t("settings.saml.entityID"))}
      {text("ssoURL", t("settings.saml.ssoURL"))}
      <label htmlFor={`${id}-certificate`}>{t("settings.saml.certificate")}</label>
      <textarea
        id={`${id}-certificate`}
        rows={4}
        value={draft.certificate}
        onChange={(event) => onChange({ ...draft, certificate: event.target.value })}
      />
      <RoleSelect
        label={t("settings.sso.defaultRole")}
        value={draft.defaultRole}
        onChange={(defaultRole) => onChange({ ...draft, defaultRole })}
        guest
        showLabel
      />
    </>
  );
}

function EditSaml({ organizationId, provider }: { organizationId: string; provider: Provider }) {
  const refresh = useRefresh();
  const [draft, setDraft] = useState(() => draftOf(provider));
  const update = $api.useMutation("patch", PROVIDER, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("settings.edit")}
      context={provider.label}
      heading={t("settings.saml.editHeading")}
      submitLabel={t("settings.save")}
      pending={update.isPending}
      error={update.error}
      onOpen={() => {
        update.reset();
        setDraft(draftOf(provider));
      }}
      onSubmit={(close) =>
        update.mutate(
          { params: { path: { organizationId, samlProviderId: provider.id } }, body: bodyOf(draft) },
          { onSuccess: close },
        )
      }
    >
      <SamlFields draft={draft} onChange={setDraft} />
    </FormDialog>
  );
}

function DeleteSaml({ organizationId, provider }: { organizationId: string; provider: Provider }) {
  const refresh = useRefresh();
  const remove = $api.useMutation("delete", PROVIDER, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("settings.delete")}
      context={provider.label}
      heading={t("settings.sso.deleteHeading")}
      submitLabel={t("settings.delete")}
      danger
      pending={remove.isPending}
      error={remove.error}
      onOpen={remove.reset}
      onSubmit={(close) =>
        remove.mutate(
          { params: { path: { organizationId, samlProviderId: provider.id } } },
          { onSuccess: close },
        )
      }
    >
      <p>{t("settings.sso.deleteWarning", { label: provider.label })}</p>
    </FormDialog>
  );
}
