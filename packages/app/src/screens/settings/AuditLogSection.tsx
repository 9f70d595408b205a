import type { Schema } from "@quire/client";
import { type FormEvent, useId } from "react";
import { useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { formatTime } from "./format.js";
import { PAGE, Pager } from "./Pager.js";

type AuditEvent = Schema<"AuditEvent">;

/** The filters, as the URL's query names them (the API's, but dates as the date inputs give them). */
const FILTERS = ["actor", "action", "from", "to"] as const;

/** A day (`YYYY-MM-DD`) as the API's moment: its first or its last millisecond, in UTC. */
const dayStart = (day: string) => (day ? `${day}T00:00:00.000Z` : undefined);
const dayEnd = (day: string) => (day ? `${day}T23:59:59.999Z` : undefined);

/** The organization's audit log, newest first: filtered by actor, action and days, paged, all in the URL. */
export function AuditLogSection({ organizationId }: { organizationId: string }) {
  const [params, setParams] = useSearchParams();
  const value = (name: string) => params.get(name) ?? "";
  const id = useId();
  const actions = $api.useQuery("get", "/v1/orgs/{organizationId}/audit-event-actions", {
    params: { path: { organizationId } },
  });
  const members = $api.useQuery("get", "/v1/orgs/{organizationId}/members", {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  const from = dayStart(value("from"));
  const to = dayEnd(value("to"));
  const events = $api.useQuery("get", "/v1/orgs/{organizationId}/audit-events", {
    params: {
      path: { organizationId },
      query: {
        limit: 25,
        ...(value(PAGE) && { page: value(PAGE) }),
        ...(value("actor") && { actor: value("actor") }),
        ...(value("action") && { action: value("action") }),
        ...(from && { from }),
        ...(to && { to }),
      },
    },
  });
  const actionLabel = (action: string) =>
    actions.data?.items.find((item) => item.id === action)?.label ?? action;
  const actorName = (event: AuditEvent) =>
    event.actor.type === "user"
      ? (members.data?.items.find((member) => member.id === event.actor.id)?.user.displayName ??
        event.actor.id)
      : t(event.actor.type === "system" ? "settings.audit.system" : "settings.audit.anonymous");

  // Applying the filters starts again from the first page.
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const entry = form.get(name);
      if (typeof entry === "string" && entry !== "") next.set(name, entry);
    }
    setParams(next);
  };

  return (
    <>
      <h2>{t("settings.auditLog")}</h2>
      {/* Keyed by the query: the back button shows the filters of the page it comes back to. */}
      <form
        key={params.toString()}
        className="filters"
        onSubmit={apply}
        aria-label={t("settings.audit.filters")}
      >
        <div>
          <label htmlFor={`${id}-actor`}>{t("settings.audit.actor")}</label>
          <select id={`${id}-actor`} name="actor" defaultValue={value("actor")}>
            <option value="">{t("settings.audit.anyone")}</option>
            {members.data?.items.map((member) => (
              <option key={member.id} value={member.id}>
                {member.user.displayName}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-action`}>{t("settings.audit.action")}</label>
          <select id={`${id}-action`} name="action" defaultValue={value("action")}>
            <option value="">{t("settings.audit.anyAction")}</option>
            {actions.data?.items.map((action) => (
              <option key={action.id} value={action.id}>
                {action.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-from`}>{t("settings.audit.from")}</label>
          <input id={`${id}-from`} name="from" type="date" defaultValue={value("from")} />
        </div>
        <div>
          <label htmlFor={`${id}-to`}>{t("settings.audit.to")}</label>
          <input id={`${id}-to`} name="to" type="date" defaultValue={value("to")} />
        </div>
        <button type="submit">{t("settings.audit.apply")}</button>
      </form>
      {events.isPending && <Loading />}
      {events.isError && <ErrorView error={events.error} />}
      {events.data && (
        <p className="meta" role="status">
          {t("settings.audit.count", { count: events.data.count })}
        </p>
      )}
      {events.data && events.data.items.length > 0 && (
        <div className="table-scroll">
          <table className="fits">
            <caption className="visually-hidden">{t("settings.auditLog")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("settings.audit.when")}</th>
                <th scope="col">{t("settings.audit.actor")}</th>
                <th scope="col">{t("settings.audit.action")}</th>
                <th scope="col">{t("settings.audit.target")}</th>
              </tr>
            </thead>
            <tbody>
              {events.data.items.map((event) => (
                <tr key={event.id}>
                  <td>{formatTime(event.occurredAt)}</td>
                  <td>{actorName(event)}</td>
                  <td>{actionLabel(event.action)}</td>
                  <td>{event.target.label ?? `${event.target.type} ${event.target.id}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={events.data?.next?.page} />
    </>
  );
}
