import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { type SiteTabProps, useRefreshSites } from "./queries.js";
import { visibilityLabel } from "./visibility.js";

const SHARE_LINKS = "/v1/orgs/{organizationId}/sites/{siteId}/share-links";
const SHARE_LINK = "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}";
const AUTH = "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth";

/** Who may read the site: its share links, and the key that signs its visitors' tokens. */
export function SiteAccess(props: SiteTabProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("sites.tab.access")}</h2>
      <p>{t("sites.access.current", { audience: visibilityLabel(props.site.visibility) })}</p>
      <ShareLinks {...props} />
      <VisitorKey {...props} />
    </section>
  );
}

function ShareLinks({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const path = { organizationId, siteId: site.id };
  const links = $api.useQuery("get", SHARE_LINKS, { params: { path } });
  const refresh = useRefreshSites();
  const revoke = $api.useMutation("patch", SHARE_LINK, { onSettled: refresh });
  const [copied, setCopied] = useState("");
  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="sites-heading">
        <h3 id={`${id}-heading`}>{t("sites.access.shareLinks")}</h3>
        <NewShareLink organizationId={organizationId} site={site} />
      </div>
      {links.isPending && <Loading />}
      {links.isError && <ErrorView error={links.error} />}
      {links.data?.items.length === 0 && <p>{t("sites.access.noShareLinks")}</p>}
      {revoke.error != null && <ErrorView error={revoke.error} />}
      {links.data && links.data.items.length > 0 && (
        <ul className="row-list">
          {links.data.items.map((link) => (
            <li key={link.id}>
              <span className="row-text">
                {link.name}{" "}
                <span className="hint">
                  {link.active ? t("sites.access.active") : t("sites.access.revoked")}
                </span>
              </span>
              <span className="row-actions">
                {link.urls.published && (
                  <button
                    type="button"
                    aria-label={t("sites.access.copyNamed", { name: link.name })}
                    onClick={() =>
                      void navigator.clipboard
                        .writeText(link.urls.published ?? "")
                        .then(() => setCopied(t("sites.access.copied", { name: link.name })))
                    }
                  >
                    {t("sites.access.copy")}
                  </button>
                )}
                {link.active && (
                  <button
                    type="button"
                    aria-label={t("sites.access.revokeNamed", { name: link.name })}
                    disabled={revoke.isPending}
                    onClick={() =>
                      revoke.mutate({
                        params: { path: { ...path, shareLinkId: link.id } },
                        body: { active: false },
                      })
                    }
                  >
                    {t("sites.access.revoke")}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="hint">
        {copied}
      </p>
    </section>
  );
}

function NewShareLink({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const refresh = useRefreshSites();
  const [name, setName] = useState("");
  const [empty, setEmpty] = useState(false);
  const create = $api.useMutation("post", SHARE_LINKS, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("sites.access.newShareLink")}
      submitLabel={t("create.submit")}
      pending={create.isPending}
      error={create.error}
      onOpen={() => {
        create.reset();
        setName("");
        setEmpty(false);
      }}
      onSubmit={(close) => {
        const trimmed = name.trim();
        setEmpty(trimmed === "");
        if (trimmed !== "")
          create.mutate(
            { params: { path: { organizationId, siteId: site.id } }, body: { name: trimmed } },
            { onSuccess: close },
          );
      }}
    >
      <label htmlFor={`${id}-name`}>{t("sites.access.name")}</label>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={50}
        onChange={(event) => setName(event.target.value)}
        aria-invalid={empty}
        aria-describedby={empty ? `${id}-empty` : undefined}
      />
      {empty && (
        <p id={`${id}-empty`} className="error" role="alert">
          {t("sites.access.nameEmpty")}
        </p>
      )}
    </FormDialog>
  );
}

/** The secret that signs visitor tokens (`visitor-auth`), hidden until asked for, and its regeneration. */
function VisitorKey({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const init = { params: { path: { organizationId, siteId: site.id } } };
  const [shown, setShown] = useState(false);
  const refresh = useRefreshSites();
  // Read only when asked for: the key is a secret, not to sit in the page unasked.
  const auth = $api.useQuery("get", AUTH, init, { enabled: shown });
  const regenerate = $api.useMutation("post", `${AUTH}/regenerate`, { onSuccess: refresh });
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t("sites.access.visitorAuth")}</h3>
      <p className="hint">{t("sites.access.visitorAuthHelp")}</p>
      {!shown && (
        <button type="button" onClick={() => setShown(true)}>
          {t("sites.access.showKey")}
        </button>
      )}
      {shown && auth.isPending && <Loading />}
      {shown && auth.isError && <ErrorView error={auth.error} />}
      {shown && auth.data && (
        <>
          <label htmlFor={`${id}-key`}>{t("sites.access.key")}</label>
          <input id={`${id}-key`} className="key-field" readOnly value={auth.data.privateKey} />
          <div className="row-actions">
            <button type="button" disabled={regenerate.isPending} onClick={() => regenerate.mutate(init)}>
              {t("sites.access.regenerate")}
            </button>
          </div>
        </>
      )}
      {regenerate.error != null && <ErrorView error={regenerate.error} />}
    </section>
  );
}
