import type { Schema } from "@quire/api-types";
import type { SessionTable } from "../auth/sessions.js";
import { SESSION_IDLE_MS } from "../auth/sessions.js";
import type { TokenSummary } from "../auth/tokens.js";
import type { UserFactorTable } from "./tables.js";

/** A session as its user sees it; it ends at the earlier of its absolute end and a week unused. */
export function presentSession(row: SessionTable, currentSessionId: string | undefined): Schema<"Session"> {
  const idleEnd = new Date(Date.parse(row.last_seen_at) + SESSION_IDLE_MS).toISOString();
  return {
    object: "session",
    id: row.id,
    current: row.id === currentSessionId,
    method: row.method,
    ...(row.device !== null && { device: row.device }),
    ...(row.address !== null && { address: row.address }),
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: idleEnd < row.expires_at ? idleEnd : row.expires_at,
  };
}

/** A second factor as its user sees it: never its secret or key. */
export function presentFactor(row: UserFactorTable): Schema<"Factor"> {
  return {
    object: "factor",
    id: row.id,
    kind: row.kind,
    name: row.name,
    createdAt: row.created_at,
    ...(row.last_used_at !== null && { lastUsedAt: row.last_used_at }),
  };
}

/** An API token as its user sees it: never its secret, which only its creation answers. */
export function presentToken(row: TokenSummary): Schema<"ApiToken"> {
  return { object: "api-token", id: row.id, label: row.label, createdAt: row.created_at };
}
