import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { $api } from "../../api/client.js";
import { ConfirmDialog } from "../../components/ConfirmDialog.js";
import { ItemList } from "../../components/ItemList.js";
import { MutationDialog } from "../../components/MutationDialog.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { draftOf, emptyDraft, WebhookFields } from "./WebhookFields.js";

type Webhook = Schema<"Webhook">;

const WEBHOOKS = "/v1/orgs/{organizationId}/webhooks";
const WEBHOOK = "/v1/orgs/{organizationId}/webhooks/{webhookId}";

/** After a write: every cached list of webhooks and every cached webhook is read again. */
function useRefreshWebhooks() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ["get", WEBHOOKS] });
    await queryClient.invalidateQueries({ queryKey: ["get", WEBHOOK] });
  };
}

/** The organization's webhooks: each with its deliveries, to edit or delete; a new one's secret shown once. */
export function WebhooksSection({ organizationId }: { organizationId: string }) {
  const webhooks = $api.useQuery("get", WEBHOOKS, {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  const [secret, setSecret] = useState<string>();
  return (
    <>
      <h2>{t("settings.webhooks")}</h2>
      <p>{t("settings.webhooks.intro")}</p>
      <CreateWebhook organizationId={organizationId} onCreated={setSecret} />
      {secret && (
        <div className="notice" role="status">
          <p>{t("settings.webhook.secretOnce")}</p>
          <code>{secret}</code>
        </div>
      )}
      <ItemList
        className="settings-list"
        query={webhooks}
        empty={t("settings.webhooks.empty")}
        item={(webhook) => <WebhookItem key={webhook.id} organizationId={organizationId} webhook={webhook} />}
      />
    </>
  );
}

function CreateWebhook({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated(secret: string): void;
}) {
  const refresh = useRefreshWebhooks();
  const [draft, setDraft] = useState(emptyDraft);
  const create = $api.useMutation("post", WEBHOOKS, { onSuccess: refresh });
  return (
    <MutationDialog
      label={t("settings.webhook.new")}
      submitLabel={t("settings.create")}
      write={create}
      onOpen={() => setDraft(emptyDraft)}
      variables={() => ({
        params: { path: { organizationId } },
        body: {
          url: draft.url.trim(),
          events: draft.events,
          active: draft.active,
          ...(draft.description.trim() && { description: draft.description.trim() }),
        },
      })}
      onDone={(created) => {
        if (created.secret) onCreated(created.secret);
      }}
    >
      <WebhookFields draft={draft} onChange={setDraft} />
    </MutationDialog>
  );
}

function WebhookItem({ organizationId, webhook }: { organizationId: string; webhook: Webhook }) {
  return (
    <li>
      <h3>{webhook.url}</h3>
      {webhook.description && <p>{webhook.description}</p>}
      <p className="meta">
        {webhook.active ? t("settings.webhook.on") : t("settings.webhook.off")}
        {webhook.disabledReason && ` — ${webhook.disabledReason}`}
        {" · "}
        {webhook.events.length === 0 ? t("settings.webhook.everyEvent") : webhook.events.join(", ")}
      </p>
      <div className="item-actions">
        <Link to={paths.organizationSettings(organizationId, `webhooks/${encodeURIComponent(webhook.id)}`)}>
          {t("settings.webhook.deliveries")}
          <span className="visually-hidden"> {webhook.url}</span>
        </Link>
        <EditWebhook organizationId={organizationId} webhook={webhook} />
        <DeleteWebhook organizationId={organizationId} webhook={webhook} />
      </div>
    </li>
  );
}

function EditWebhook({ organizationId, webhook }: { organizationId: string; webhook: Webhook }) {
  const refresh = useRefreshWebhooks();
  const [draft, setDraft] = useState(() => draftOf(webhook));
  const update = $api.useMutation("patch", WEBHOOK, { onSuccess: refresh });
  return (
    <MutationDialog
      label={t("settings.edit")}
      context={webhook.url}
      heading={t("settings.webhook.editHeading")}
      submitLabel={t("settings.save")}
      write={update}
      onOpen={() => setDraft(draftOf(webhook))}
      variables={() => ({
        params: { path: { organizationId, webhookId: webhook.id } },
        body: {
          url: draft.url.trim(),
          events: draft.events,
          active: draft.active,
          description: draft.description.trim() || null,
        },
      })}
    >
      <WebhookFields draft={draft} onChange={setDraft} />
    </MutationDialog>
  );
}

function DeleteWebhook({ organizationId, webhook }: { organizationId: string; webhook: Webhook }) {
  const refresh = useRefreshWebhooks();
  const remove = $api.useMutation("delete", WEBHOOK, { onSuccess: refresh });
  return (
    <ConfirmDialog
      label={t("settings.delete")}
      context={webhook.url}
      heading={t("settings.webhook.deleteHeading")}
      warning={t("settings.webhook.deleteWarning", { url: webhook.url })}
      write={remove}
      variables={() => ({ params: { path: { organizationId, webhookId: webhook.id } } })}
    />
  );
}
