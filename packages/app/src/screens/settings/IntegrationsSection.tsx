import type { Schema } from "@quire/client";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { ConfirmDialog } from "../../components/ConfirmDialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { PAGE, Pager } from "./Pager.js";

type Integration = Schema<"Integration">;
type Installation = Schema<"Installation">;

const STATUSES: Record<Schema<"InstallationStatus">, MessageKey> = {
  active: "settings.integration.active",
  pending: "settings.integration.pending",
  paused: "settings.integration.paused",
};

const INTEGRATIONS = "/v1/integrations";
const INSTALLATIONS = "/v1/integrations/{integrationName}/installations";
const INSTALLATION = "/v1/integrations/{integrationName}/installations/{installationId}";

/** The server's rule: a private integration installs only into the organization that owns it. */
const installableInto = (integration: Integration, organizationId: string) =>
  integration.visibility !== "private" || integration.owner.id === organizationId;

const installationsInit = (integrationName: string) => ({
  params: { path: { integrationName }, query: { limit: 100 } },
});

function useRefreshInstallations() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", INSTALLATIONS] });
}

/**
 * The integrations the organization can install, and those installed in it. The contract lists
 * installations per integration only (those of organizations the caller administers): each
 * integration's list is read, and this organization's installation picked from it.
 */
export function IntegrationsSection({ organizationId }: { organizationId: string }) {
  const [params] = useSearchParams();
  const page = params.get(PAGE) ?? undefined;
  const integrations = $api.useQuery("get", INTEGRATIONS, {
    params: { query: { limit: 100, ...(page && { page }) } },
  });
  const installable = (integrations.data?.items ?? []).filter((integration) =>
    installableInto(integration, organizationId),
  );
  const installations = useQueries({
    queries: installable.map((integration) =>
      $api.queryOptions("get", INSTALLATIONS, installationsInit(integration.name)),
    ),
  });
  const installationFailed = installations.find((query) => query.isError);
  const installed: { integration: Integration; installation: Installation }[] = [];
  const available: Integration[] = [];
  installable.forEach((integration, index) => {
    const installation = installations[index]?.data?.items.find(
      (item) => item.target.organization === organizationId,
    );
    if (installation) installed.push({ integration, installation });
    else available.push(integration);
  });
  const pending = integrations.isPending || installations.some((query) => query.isPending);

  return (
    <>
      <h2>{t("settings.integrations")}</h2>
      <p>{t("settings.integrations.intro")}</p>
      {integrations.isError && <ErrorView error={integrations.error} />}
      {installationFailed && <ErrorView error={installationFailed.error} />}
      {pending && !integrations.isError && <Loading />}
      {!pending && !integrations.isError && !installationFailed && (
        <>
          <h3>{t("settings.integrations.installed")}</h3>
          {installed.length === 0 ? (
            <p>{t("settings.integrations.noneInstalled")}</p>
          ) : (
            <ul className="settings-list">
              {installed.map(({ integration, installation }) => (
                <li key={integration.name}>
                  <IntegrationSummary integration={integration} />
                  <p className="meta">
                    {t(STATUSES[installation.status])}
                    {" · "}
                    {t("settings.integration.spaces", { count: installation.spaces })}
                  </p>
                  <div className="item-actions">
                    <Uninstall integration={integration} installation={installation} />
                  </div>
                </li>
              ))}
            </ul>
          )}
          <h3>{t("settings.integrations.available")}</h3>
          {available.length === 0 ? (
            <p>{t("settings.integrations.noneAvailable")}</p>
          ) : (
            <ul className="settings-list">
              {available.map((integration) => (
                <li key={integration.name}>
                  <IntegrationSummary integration={integration} />
                  <Install organizationId={organizationId} integration={integration} />
                </li>
              ))}
            </ul>
          )}
          <Pager next={integrations.data?.next?.page} />
        </>
      )}
    </>
  );
}

function IntegrationSummary({ integration }: { integration: Integration }) {
  return (
    <>
      <h4>{integration.title}</h4>
      <p className="meta">
        {integration.name} · {integration.owner.title}
      </p>
      {integration.description && <p>{integration.description}</p>}
    </>
  );
}

function Install({ organizationId, integration }: { organizationId: string; integration: Integration }) {
  const refresh = useRefreshInstallations();
  const install = $api.useMutation("post", INSTALLATIONS, { onSuccess: refresh });
  return (
    <>
      <div className="item-actions">
        <button
          type="button"
          disabled={install.isPending}
          onClick={() =>
            install.mutate({
              params: { path: { integrationName: integration.name } },
              body: { organization: organizationId },
            })
          }
        >
          {t("settings.integration.install")}
          <span className="visually-hidden"> {integration.title}</span>
        </button>
      </div>
      {install.isError && <ErrorView error={install.error} />}
    </>
  );
}

function Uninstall({ integration, installation }: { integration: Integration; installation: Installation }) {
  const refresh = useRefreshInstallations();
  const remove = $api.useMutation("delete", INSTALLATION, { onSuccess: refresh });
  return (
    <ConfirmDialog
      label={t("settings.integration.uninstall")}
      context={integration.title}
      heading={t("settings.integration.uninstallHeading")}
      warning={t("settings.integration.uninstallWarning", { title: integration.title })}
      write={remove}
      variables={() => ({
        params: { path: { integrationName: integration.name, installationId: installation.id } },
      })}
    />
  );
}
