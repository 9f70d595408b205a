import type { Logger } from "pino";
import type { FileSettings } from "./blobs/settings.js";
import type { Clock, IdGenerator } from "./context.js";
import type { Db, Transaction } from "./db/database.js";
import type { EventDeliverySettings } from "./events/delivery-settings.js";
import type { Mailer } from "./mail/index.js";
import type { Fetcher, NetworkPolicy } from "./net/fetch.js";
import type { GitSettings } from "./net/git.js";
import type { Urls } from "./urls.js";

/** What handlers work with: storage, time, ids and the server's public URLs. */
export interface Services {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  urls: Urls;
  /** The clock's current time, as stored: ISO 8601. */
  now(): string;
  /**
   * Runs `work` in one database transaction, committed when it resolves and rolled back when it
   * throws: the one way a handler groups writes (a command takes the `Transaction` it gets).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The key that encrypts secrets stored at rest (`QUIRE_SECRET_KEY`). */
  secretKey: string;
  /** Where file bytes are stored, and how large an uploaded file may be. */
  files: FileSettings;
  /** Fetches what users point the server at (imports), through the network policy. */
  fetcher: Fetcher;
  /** Which addresses the server's own requests may reach (the fetcher's policy). */
  network: NetworkPolicy;
  /** Git Sync's repositories, reached through the same network policy. */
  git: GitSettings;
  /** How events go out to webhooks and integrations. */
  eventDelivery: EventDeliverySettings;
  /** Sends mail (invitations, sign-in links), or writes it to the log where no SMTP server is set. */
  mailer: Mailer;
  /** For what fails after the answer went out (a mail sent in the background). */
  logger: Logger;
}

/** The services over these parts; `now` and `transaction` derive from the clock and the database. */
export function createServices(parts: Omit<Services, "now" | "transaction">): Services {
  const { db, clock } = parts;
  return {
    ...parts,
    now: () => clock.now().toISOString(),
    transaction: (work) => db.transaction().execute(work),
  };
}
