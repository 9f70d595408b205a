import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { $api } from "../../api/client.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { Providers } from "./Providers.js";

type Provider = Schema<"OidcProvider">;

const PROVIDERS = "/v1/orgs/{organizationId}/oidc-providers";
const PROVIDER = "/v1/orgs/{organizationId}/oidc-providers/{oidcProviderId}";

/** The form's fields; the client secret is never read back: empty keeps the one set. */
interface Draft {
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  defaultRole: Role | null;
}

const emptyDraft: Draft = {
  label: "",
  issuer: "",
  clientId: "",
  clientSecret: "",
  scopes: "openid email profile",
  defaultRole: "read",
};
const draftOf = (provider: Provider): Draft => ({
  label: provider.label,
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecret: "",
  scopes: provider.scopes.join(" "),
  defaultRole: provider.defaultRole ?? null,
});

/** The draft without the secret typed: it stays in the page no longer than its dialog is open. */
const forgetSecret = (draft: Draft): Draft => ({ ...draft, clientSecret: "" });

const bodyOf = (draft: Draft) => ({
  label: draft.label.trim(),
  issuer: draft.issuer.trim(),
  clientId: draft.clientId.trim(),
  ...(draft.clientSecret !== "" && { clientSecret: draft.clientSecret }),
  scopes: draft.scopes.split(/\s+/).filter((scope) => scope !== ""),
  defaultRole: draft.defaultRole,
});

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", PROVIDERS] });
}

/** The organization's OpenID Connect providers: the redirect URL each needs, to add, edit or delete. */
export function OidcProviders({ organizationId }: { organizationId: string }) {
  const providers = $api.useQuery("get", PROVIDERS, {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  const refresh = useRefresh();
  const create = $api.useMutation("post", PROVIDERS, { onSuccess: refresh });
  const update = $api.useMutation("patch", PROVIDER, { onSuccess: refresh });
  const remove = $api.useMutation("delete", PROVIDER, { onSuccess: refresh });
  const path = (provider: Provider) => ({ organizationId, oidcProviderId: provider.id });
  return (
    <Providers
      query={providers}
      kind={{
        heading: "settings.oidc",
        newLabel: "settings.oidc.new",
        empty: "settings.oidc.empty",
        editHeading: "settings.oidc.editHeading",
        emptyDraft,
        draftOf,
        keep: forgetSecret,
        fields: (draft, onChange) => <OidcFields draft={draft} onChange={onChange} />,
        details: (provider) => (
          <dl>
            <dt>{t("settings.oidc.issuer")}</dt>
            <dd>{provider.issuer}</dd>
            <dt>{t("settings.oidc.clientId")}</dt>
            <dd>{provider.clientId}</dd>
            <dt>{t("settings.oidc.clientSecret")}</dt>
            <dd>{provider.clientSecretSet ? t("settings.oidc.secretSet") : t("settings.oidc.noSecret")}</dd>
            <dt>{t("settings.oidc.redirectURL")}</dt>
            <dd>{provider.service.redirectURL}</dd>
          </dl>
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

function OidcFields({ draft, onChange }: { draft: Draft; onChange(draft: Draft): void }) {
  const id = useId();
  const text = (name: "label" | "issuer" | "clientId" | "scopes", label: string) => (
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
      {text("issuer", t("settings.oidc.issuer"))}
      {text("clientId", t("settings.oidc.clientId"))}
      <label htmlFor={`${id}-secret`}>{t("settings.oidc.clientSecret")}</label>
      <input
        id={`${id}-secret`}
        type="password"
        autoComplete="off"
        value={draft.clientSecret}
        onChange={(event) => onChange({ ...draft, clientSecret: event.target.value })}
        aria-describedby={`${id}-secret-hint`}
      />
      <p id={`${id}-secret-hint`} className="hint">
        {t("settings.oidc.secretHint")}
      </p>
      {text("scopes", t("settings.oidc.scopes"))}
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
