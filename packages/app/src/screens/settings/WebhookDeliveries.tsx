import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { formatTime } from "./format.js";
import { PAGE, Pager } from "./Pager.js";

type Delivery = Schema<"WebhookDelivery">;
type Status = Schema<"WebhookDeliveryStatus">;

const DELIVERIES = "/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries";
const STATUSES: Record<Status, MessageKey> = {
  pending: "settings.delivery.pending",
  success: "settings.delivery.success",
  failed: "settings.delivery.failed",
};
const isStatus = (value: string | null): value is Status => value !== null && value in STATUSES;

/** One webhook's deliveries, newest first, filtered by status (in the URL), each to send again. */
export function WebhookDeliveries({ organizationId }: { organizationId: string }) {
  const webhookId = useParams().webhookId ?? "";
  const [params, setParams] = useSearchParams();
  const status = params.get("status");
  const page = params.get(PAGE) ?? undefined;
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["get", DELIVERIES] });
  const webhook = $api.useQuery("get", "/v1/orgs/{organizationId}/webhooks/{webhookId}", {
    params: { path: { organizationId, webhookId } },
  });
  const deliveries = $api.useQuery("get", DELIVERIES, {
    params: {
      path: { organizationId, webhookId },
      query: { limit: 20, ...(page && { page }), ...(isStatus(status) && { status }) },
    },
  });
  const test = $api.useMutation("post", "/v1/orgs/{organizationId}/webhooks/{webhookId}/test", {
    onSuccess: refresh,
  });
  const redeliver = $api.useMutation(
    "post",
    "/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
    { onSuccess: refresh },
  );
  const statusId = useId();
  const filter = (value: string) => {
    const next = new URLSearchParams();
    if (value) next.set("status", value);
    setParams(next);
  };

  return (
    <>
      <p>
        <Link to={paths.organizationSettings(organizationId, "webhooks")}>{t("settings.webhooks.back")}</Link>
      </p>
      <h2>{t("settings.deliveries.title", { url: webhook.data?.url ?? "…" })}</h2>
      {webhook.isError && <ErrorView error={webhook.error} />}
      <div className="toolbar">
        <button
          type="button"
          disabled={test.isPending}
          onClick={() => test.mutate({ params: { path: { organizationId, webhookId } } })}
        >
          {t("settings.deliveries.test")}
        </button>
        <label htmlFor={statusId}>{t("settings.deliveries.status")}</label>
        <select
          id={statusId}
          value={isStatus(status) ? status : ""}
          onChange={(event) => filter(event.target.value)}
        >
          <option value="">{t("settings.deliveries.every")}</option>
          {Object.entries(STATUSES).map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
      </div>
      {test.isError && <ErrorView error={test.error} />}
      {redeliver.isError && <ErrorView error={redeliver.error} />}
      <p role="status" className="saved">
        {test.isSuccess && t("settings.deliveries.tested", { status: t(STATUSES[test.data.status]) })}
        {redeliver.isSuccess && t("settings.deliveries.queued")}
      </p>
      {deliveries.isPending && <Loading />}
      {deliveries.isError && <ErrorView error={deliveries.error} />}
      {deliveries.data?.items.length === 0 && <p>{t("settings.deliveries.empty")}</p>}
      {deliveries.data && deliveries.data.items.length > 0 && (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{t("settings.deliveries.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("settings.deliveries.event")}</th>
                <th scope="col">{t("settings.deliveries.status")}</th>
                <th scope="col">{t("settings.deliveries.queuedAt")}</th>
                <th scope="col">{t("settings.deliveries.attemptAt")}</th>
                <th scope="col">{t("settings.deliveries.code")}</th>
                <th scope="col">{t("settings.deliveries.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  pending={redeliver.isPending}
                  onRedeliver={() =>
                    redeliver.mutate({
                      params: { path: { organizationId, webhookId, deliveryId: delivery.id } },
                    })
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={deliveries.data?.next?.page} />
    </>
  );
}

function DeliveryRow({
  delivery,
  pending,
  onRedeliver,
}: {
  delivery: Delivery;
  pending: boolean;
  onRedeliver(): void;
}) {
  const attempt = delivery.lastAttempt;
  return (
    <tr>
      <td>{delivery.event.type}</td>
      <td>
        {t(STATUSES[delivery.status])}
        {attempt?.error && <span className="meta"> — {attempt.error}</span>}
      </td>
      <td>{formatTime(delivery.createdAt)}</td>
      <td>{attempt ? formatTime(attempt.at) : t("settings.deliveries.none")}</td>
      <td>{attempt?.statusCode ?? t("settings.deliveries.noAnswer")}</td>
      <td>
        <button type="button" disabled={pending} onClick={onRedeliver}>
          {t("settings.deliveries.redeliver")}
          <span className="visually-hidden">
            {" "}
            {delivery.event.type} {formatTime(delivery.createdAt)}
          </span>
        </button>
      </td>
    </tr>
  );
}
