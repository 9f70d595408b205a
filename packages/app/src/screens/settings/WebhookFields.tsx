import type { Schema } from "@quire/client";
import { useId } from "react";
import { t } from "../../i18n/index.js";
import { EVENT_TYPES } from "./webhook-events.js";

type EventType = Schema<"EventType">;

/** What the create and edit forms of a webhook hold. */
export interface WebhookDraft {
  url: string;
  description: string;
  events: EventType[];
  active: boolean;
}

export const emptyDraft: WebhookDraft = { url: "", description: "", events: [], active: true };

export const draftOf = (webhook: Schema<"Webhook">): WebhookDraft => ({
  url: webhook.url,
  description: webhook.description ?? "",
  events: webhook.events,
  active: webhook.active,
});

/** The fields of a webhook: where it sends, what for, which events (none chosen: every one), on or off. */
export function WebhookFields({
  draft,
  onChange,
}: {
  draft: WebhookDraft;
  onChange(draft: WebhookDraft): void;
}) {
  const id = useId();
  const toggle = (type: EventType, on: boolean) =>
    onChange({
      ...draft,
      events: on ? [...draft.events, type] : draft.events.filter((event) => event !== type),
    });
  return (
    <>
      <label htmlFor={`${id}-url`}>{t("settings.webhook.url")}</label>
      <input
        id={`${id}-url`}
        type="url"
        value={draft.url}
        onChange={(event) => onChange({ ...draft, url: event.target.value })}
        required
      />
      <label htmlFor={`${id}-description`}>{t("settings.webhook.description")}</label>
      <input
        id={`${id}-description`}
        value={draft.description}
        onChange={(event) => onChange({ ...draft, description: event.target.value })}
      />
      <fieldset className="events" aria-describedby={`${id}-events-hint`}>
        <legend>{t("settings.webhook.events")}</legend>
        <p id={`${id}-events-hint`} className="hint">
          {t("settings.webhook.eventsHint")}
        </p>
        <div className="events-list">
          {EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input
                type="checkbox"
                checked={draft.events.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.active}
          onChange={(event) => onChange({ ...draft, active: event.target.checked })}
        />
        {t("settings.webhook.active")}
      </label>
    </>
  );
}
