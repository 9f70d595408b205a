import type { Handlers, OperationId } from "@quire/api-types";
import type { Caller } from "./auth/caller.js";
import type { FileSettings } from "./blobs/settings.js";
import type { Clock, IdGenerator } from "./context.js";
import type { Db } from "./db/database.js";
import type { Fetcher } from "./net/fetch.js";
import type { Urls } from "./urls.js";

/** What handlers work with: storage, time, ids and the server's public URLs. */
export interface Services {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  urls: Urls;
  /** The clock's current time, as stored: ISO 8601. */
  now(): string;
  /** The key that encrypts secrets stored at rest (`QUIRE_SECRET_KEY`). */
  secretKey: string;
  /** Where file bytes are stored, and how large an uploaded file may be. */
  files: FileSettings;
  /** Fetches what users point the server at (imports), through the network policy. */
  fetcher: Fetcher;
}

/** The handlers of one resource area, typed by the contract. */
export type AreaHandlers<Ids extends OperationId> = Pick<Handlers<Caller>, Ids>;
