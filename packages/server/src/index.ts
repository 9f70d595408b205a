export { type AppOptions, createApp } from "./app.js";
export type { Caller } from "./auth/caller.js";
export { generateSecretKey } from "./auth/secret-key.js";
export { issueToken } from "./auth/tokens.js";
export { bootstrapOwner, type FirstRun } from "./bootstrap.js";
export { type Clock, type IdGenerator, systemClock, timeOrderedIds } from "./context.js";
export { type Db, migrate, openDatabase } from "./db/database.js";
export { urlsFor } from "./urls.js";
