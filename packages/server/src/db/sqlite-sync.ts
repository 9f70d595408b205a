/**
 * SQLite's `synchronous` in WAL mode (`QUIRE_SQLITE_SYNCHRONOUS`). `normal`: a commit is written to
 * the log and synced at the next checkpoint, so a killed process loses nothing and a power cut can
 * lose the last commits (never corrupt the database). `full`: each commit is synced before it is
 * acknowledged, at the cost of a disk sync per commit on the event loop (0.4 ms on the test machine
 * against 0.02). A module of its own so that the configuration names it without loading the database.
 */
export type SqliteSync = "normal" | "full";
