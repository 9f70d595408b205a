import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api, fetchClient } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { type Role, RoleSelect, roleKey } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { DEFAULT_ROLE, inviteLinkUrl } from "./logic.js";
import { loadedItems, usePages } from "./paged.js";

const LINKS = "/v1/orgs/{organizationId}/link-invites";
const LINK = "/v1/orgs/{organizationId}/link-invites/{inviteId}";

/**
 * Invitations: by email through "Invite people" (those invited are members at once, so they are on the
 * Members tab), and by link: links anyone signed in can follow to join with the link's role.
 */
export function InvitesTab({ organizationId }: { organizationId: string }) {
  const { organization } = useShell();
  const id = useId();
  return (
    <section className="people-tab" aria-labelledby={id}>
      <h2 id={id}>{t("people.tab.invites")}</h2>
      <p>{t("people.invites.byEmail")}</p>
      <h3>{t("people.links.title")}</h3>
      {!organization.permissions.admin ? (
        <p>{t("people.invites.adminsOnly")}</p>
      ) : organization.inviteLinks ? (
        <InviteLinks organizationId={organizationId} defaultRole={organization.defaultRole ?? DEFAULT_ROLE} />
      ) : (
        <p>{t("people.links.off")}</p>
      )}
    </section>
  );
}

function InviteLinks({ organizationId, defaultRole }: { organizationId: string; defaultRole: Role | null }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["get", LINKS] });
  const init = { params: { path: { organizationId } } };
  const links = usePages<Schema<"Invite">>($api.queryOptions("get", LINKS, init).queryKey, (page, signal) =>
    fetchClient.GET(LINKS, { signal, params: { path: { organizationId }, query: { page } } }),
  );
  const create = $api.useMutation("post", LINKS, { onSuccess: refresh });
  const revoke = $api.useMutation("delete", LINK, { onSuccess: refresh });
  const [role, setRole] = useState(defaultRole);
  const [copied, setCopied] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ params: { path: { organizationId } }, body: { role } });
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(t("people.links.copied"));
    } catch {
      setCopied(t("people.links.copyFailed"));
    }
  };

  const items = loadedItems(links.data);
  return (
    <>
      <form className="people-toolbar" onSubmit={submit}>
        <RoleSelect label={t("people.links.role")} value={role} onChange={setRole} guest showLabel />
        <button type="submit" disabled={create.isPending}>
          {t("people.links.create")}
        </button>
      </form>
      {create.error != null && <ErrorView error={create.error} />}
      {revoke.error != null && <ErrorView error={revoke.error} />}
      <p role="status" className="people-status">
        {copied}
      </p>
      {links.isPending && <Loading />}
      {links.isError && <ErrorView error={links.error} />}
      {links.isSuccess && items.length === 0 && <p>{t("people.links.none")}</p>}
      {items.length > 0 && (
        <ul className="people-cards" aria-label={t("people.links.title")}>
          {items.map((link) => {
            const url = inviteLinkUrl(window.location.origin, link.id);
            const name = t("people.links.named", { role: t(roleKey(link.role)) });
            return (
              <li key={link.id} className="people-card">
                <span className="people-card-title">{name}</span>
                <input
                  readOnly
                  value={url}
                  aria-label={t("people.links.url", { role: t(roleKey(link.role)) })}
                />
                <span className="people-card-actions">
                  <button type="button" onClick={() => void copy(url)}>
                    {t("people.links.copy")}
                  </button>
                  <button
                    type="button"
                    aria-label={t("people.links.revokeNamed", { role: t(roleKey(link.role)) })}
                    onClick={() => revoke.mutate({ params: { path: { organizationId, inviteId: link.id } } })}
                  >
                    {t("people.links.revoke")}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {links.hasNextPage && (
        <button type="button" onClick={() => void links.fetchNextPage()} disabled={links.isFetchingNextPage}>
          {t("people.more")}
        </button>
      )}
    </>
  );
}
