/**
 * How the consumers of the event stream that send it out (webhooks, integration events) run: from the
 * configuration (`QUIRE_WEBHOOK_FANOUT_MS`, `QUIRE_WEBHOOK_TIMEOUT_MS`, see `config.ts`).
 */
export interface EventDeliverySettings {
  /** How often new events are matched to their receivers. */
  fanOutMs: number;
  /** How long a receiver has to answer. */
  timeoutMs: number;
  /** How often retries that came due are looked for. */
  sweepMs: number;
  /** Events matched to receivers in one run of a fan-out. */
  fanOutBatch: number;
}

export const defaultEventDelivery: EventDeliverySettings = {
  fanOutMs: 1000,
  timeoutMs: 10_000,
  sweepMs: 15_000,
  fanOutBatch: 1000,
};
