import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { type SiteTabProps, useRefreshSites } from "./queries.js";
import { destinationLabel, isSourcePath } from "./redirects.js";

const REDIRECTS = "/v1/orgs/{organizationId}/sites/{siteId}/redirects";

/** The site's live redirects: each old path and where it sends visitors; add one, delete one. */
export function SiteRedirects({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const path = { organizationId, siteId: site.id };
  const redirects = $api.useQuery("get", REDIRECTS, { params: { path } });
  const refresh = useRefreshSites();
  const remove = $api.useMutation("delete", `${REDIRECTS}/{siteRedirectId}`, { onSettled: refresh });
  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="sites-heading">
        <h2 id={`${id}-heading`}>{t("sites.tab.redirects")}</h2>
        <NewRedirect organizationId={organizationId} site={site} />
      </div>
      {redirects.isPending && <Loading />}
      {redirects.isError && <ErrorView error={redirects.error} />}
      {redirects.data?.items.length === 0 && <p>{t("sites.redirects.empty")}</p>}
      {remove.error != null && <ErrorView error={remove.error} />}
      {redirects.data && redirects.data.items.length > 0 && (
        <ul className="row-list">
          {redirects.data.items.map((redirect) => (
            <li key={redirect.id}>
              <span className="row-text">
                <code>{redirect.source}</code> → {destinationLabel(redirect.destination)}
              </span>
              <button
                type="button"
                disabled={remove.isPending}
                aria-label={t("sites.redirects.deleteNamed", { source: redirect.source })}
                onClick={() => remove.mutate({ params: { path: { ...path, siteRedirectId: redirect.id } } })}
              >
                {t("sites.redirects.delete")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Add redirect": an old path of the site, and the address it sends visitors to. */
function NewRedirect({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const refresh = useRefreshSites();
  const [source, setSource] = useState("");
  const [url, setUrl] = useState("");
  const [tried, setTried] = useState(false);
  const add = $api.useMutation("post", REDIRECTS, { onSuccess: refresh });
  const badSource = tried && !isSourcePath(source.trim());
  const badUrl = tried && !URL.canParse(url.trim());
  return (
    <FormDialog
      label={t("sites.redirects.add")}
      submitLabel={t("create.submit")}
      pending={add.isPending}
      error={add.error}
      onOpen={() => {
        add.reset();
        setSource("");
        setUrl("");
        setTried(false);
      }}
      onSubmit={(close) => {
        setTried(true);
        if (!isSourcePath(source.trim()) || !URL.canParse(url.trim())) return;
        add.mutate(
          {
            params: { path: { organizationId, siteId: site.id } },
            body: {
              source: source.trim(),
              destination: { kind: "external", url: url.trim() },
              captureWildcard: false,
              draft: false,
              permanent: false,
            },
          },
          { onSuccess: close },
        );
      }}
    >
      <label htmlFor={`${id}-source`}>{t("sites.redirects.source")}</label>
      <input
        id={`${id}-source`}
        value={source}
        placeholder="/old/page"
        onChange={(event) => setSource(event.target.value)}
        aria-invalid={badSource}
        aria-describedby={`${id}-source-hint`}
      />
      <p id={`${id}-source-hint`} className={badSource ? "error" : "hint"}>
        {t("sites.redirects.sourceHint")}
      </p>
      <label htmlFor={`${id}-url`}>{t("sites.redirects.url")}</label>
      <input
        id={`${id}-url`}
        type="url"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        aria-invalid={badUrl}
        aria-describedby={badUrl ? `${id}-url-problem` : undefined}
      />
      {badUrl && (
        <p id={`${id}-url-problem`} className="error" role="alert">
          {t("sites.customize.urlFormat")}
        </p>
      )}
    </FormDialog>
  );
}
