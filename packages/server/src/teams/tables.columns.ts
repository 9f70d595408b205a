import type { ColumnsOf } from "../db/columns.js";
import type { TeamsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const teamsColumns: ColumnsOf<TeamsTables> = {
  teams: { id: "not null", organization_id: "not null", title: "not null", created_at: "not null" },
  team_members: { team_id: "not null", user_id: "not null", role: "not null", created_at: "not null" },
};
