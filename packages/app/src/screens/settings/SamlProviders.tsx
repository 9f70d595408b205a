import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { $api } from "../../api/client.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { Providers } from "./Providers.js";

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
  const create = $api.useMutation("post", PROVIDERS, { onSuccess: refresh });
  const update = $api.useMutation("patch", PROVIDER, { onSuccess: refresh });
  const remove = $api.useMutation("delete", PROVIDER, { onSuccess: refresh });
  const path = (provider: Provider) => ({ organizationId, samlProviderId: provider.id });
  return (
    <Providers
      query={providers}
      kind={{
        heading: "settings.saml",
        newLabel: "settings.saml.new",
        empty: "settings.saml.empty",
        editHeading: "settings.saml.editHeading",
        emptyDraft,
        draftOf,
        fields: (draft, onChange) => <SamlFields draft={draft} onChange={onChange} />,
        details: (provider) => (
          <>
            <p className="meta">
              {provider.status === "active" ? t("settings.saml.active") : t("settings.saml.pending")}
            </p>
            <dl>
              <dt>{t("settings.saml.acsURL")}</dt>
              <dd>{provider.service.acsURL}</dd>
              <dt>{t("settings.saml.serviceEntityID")}</dt>
              <dd>{provider.service.entityID}</dd>
            </dl>
          </>
        ),
        create,
        created: (draft) => ({ params: { path: { organizationId } }, body: bodyOf(draft) }),
        update,
        updated: (provider, draft) => ({ params: { path: path(provider) }, body: bodyOf(draft) }),
        remove,
        removed: (provider) => ({ params: { path: path(provider) } }),
      }}
    />
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
