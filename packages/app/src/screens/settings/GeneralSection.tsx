import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { SaveActions } from "../../components/SaveActions.js";
import { t } from "../../i18n/index.js";

type Organization = Schema<"Organization">;
type Update = Schema<"UpdateOrganizationRequest">;

/** The general settings: the organization's title, hostname, who may join and with which role. */
export function GeneralSection({ organizationId }: { organizationId: string }) {
  const organization = $api.useQuery("get", "/v1/orgs/{organizationId}", {
    params: { path: { organizationId } },
  });
  return (
    <>
      <h2>{t("settings.general")}</h2>
      {organization.isPending && <Loading />}
      {organization.isError && <ErrorView error={organization.error} />}
      {organization.data && <GeneralForm organization={organization.data} />}
    </>
  );
}

/** What the form holds: the organization's fields as text and switches. */
interface Fields {
  title: string;
  hostname: string;
  emailDomains: string;
  defaultRole: Role | null;
  inviteLinks: boolean;
  ai: boolean;
  requireSecondFactor: boolean;
}

const fieldsOf = (org: Organization): Fields => ({
  title: org.title,
  hostname: org.hostname ?? "",
  emailDomains: org.emailDomains.join(", "),
  defaultRole: org.defaultRole ?? null,
  inviteLinks: org.inviteLinks,
  ai: org.ai ?? false,
  requireSecondFactor: org.requireSecondFactor ?? false,
});

const domainsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== "");

/** Only what changed is sent: a field left alone is never overwritten with what the form last read. */
function changes(before: Fields, after: Fields): Update {
  const update: Update = {};
  if (after.title !== before.title) update.title = after.title.trim();
  if (after.hostname !== before.hostname && after.hostname.trim() !== "")
    update.hostname = after.hostname.trim();
  if (after.emailDomains !== before.emailDomains) update.emailDomains = domainsOf(after.emailDomains);
  if (after.defaultRole !== before.defaultRole) update.defaultRole = after.defaultRole;
  if (after.inviteLinks !== before.inviteLinks) update.inviteLinks = after.inviteLinks;
  if (after.ai !== before.ai) update.ai = after.ai;
  if (after.requireSecondFactor !== before.requireSecondFactor)
    update.requireSecondFactor = after.requireSecondFactor;
  return update;
}

function GeneralForm({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const id = useId();
  const saved = fieldsOf(organization);
  const [fields, setFields] = useState(saved);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => {
    save.reset();
    setFields((current) => ({ ...current, [key]: value }));
  };
  const save = $api.useMutation("patch", "/v1/orgs/{organizationId}", {
    onSuccess: async (updated) => {
      setFields(fieldsOf(updated));
      // The shell names the organization from the list: both show the new title.
      await queryClient.invalidateQueries({ queryKey: ["get", "/v1/orgs/{organizationId}"] });
      await queryClient.invalidateQueries({ queryKey: ["get", "/v1/orgs"] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ params: { path: { organizationId: organization.id } }, body: changes(saved, fields) });
  };

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-title`}>{t("settings.orgTitle")}</label>
      <input
        id={`${id}-title`}
        value={fields.title}
        onChange={(event) => set("title", event.target.value)}
        autoComplete="organization"
      />
      <label htmlFor={`${id}-hostname`}>{t("settings.hostname")}</label>
      <input
        id={`${id}-hostname`}
        value={fields.hostname}
        onChange={(event) => set("hostname", event.target.value)}
        aria-describedby={`${id}-hostname-hint`}
      />
      <p id={`${id}-hostname-hint`} className="hint">
        {t("settings.hostnameHint")}
      </p>
      <label htmlFor={`${id}-domains`}>{t("settings.emailDomains")}</label>
      <input
        id={`${id}-domains`}
        value={fields.emailDomains}
        onChange={(event) => set("emailDomains", event.target.value)}
        aria-describedby={`${id}-domains-hint`}
      />
      <p id={`${id}-domains-hint`} className="hint">
        {t("settings.emailDomainsHint")}
      </p>
      <RoleSelect
        label={t("settings.defaultRole")}
        value={fields.defaultRole}
        onChange={(role) => set("defaultRole", role)}
        guest
        showLabel
      />
      <label className="check">
        <input
          type="checkbox"
          checked={fields.inviteLinks}
          onChange={(event) => set("inviteLinks", event.target.checked)}
        />
        {t("settings.inviteLinks")}
      </label>
      <label className="check">
        <input type="checkbox" checked={fields.ai} onChange={(event) => set("ai", event.target.checked)} />
        {t("settings.ai")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={fields.requireSecondFactor}
          onChange={(event) => set("requireSecondFactor", event.target.checked)}
        />
        {t("settings.requireSecondFactor")}
      </label>
      {save.isError && <ErrorView error={save.error} />}
      <SaveActions label={t("settings.save")} saved={t("settings.saved")} save={save} statusClass="saved" />
    </form>
  );
}
