/** What the delivery of webhooks runs with. */
export interface WebhookSettings {
  /** `QUIRE_WEBHOOK_FANOUT_MS`: how often new events are matched to webhooks, every second by default. */
  fanOutMs: number;
  /** `QUIRE_WEBHOOK_TIMEOUT_MS`: how long a receiver has to answer, 10 seconds by default. */
  timeoutMs: number;
  /** How often retries that came due are looked for. */
  sweepMs: number;
  /** Events matched to webhooks in one run of the fan-out. */
  fanOutBatch: number;
}

export const defaultWebhookSettings: WebhookSettings = {
  fanOutMs: 1000,
  timeoutMs: 10_000,
  sweepMs: 15_000,
  fanOutBatch: 1000,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, not "${env[name]}"`);
  return value;
}

/** The settings from the environment, the defaults for those not set. */
export function webhookSettingsFrom(env: NodeJS.ProcessEnv): WebhookSettings {
  return {
    ...defaultWebhookSettings,
    fanOutMs: positive(env, "QUIRE_WEBHOOK_FANOUT_MS", defaultWebhookSettings.fanOutMs),
    timeoutMs: positive(env, "QUIRE_WEBHOOK_TIMEOUT_MS", defaultWebhookSettings.timeoutMs),
  };
}
