/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface TeamsTables {
  teams: TeamTable;
  team_members: TeamMemberTable;
}

export interface TeamTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export type TeamMemberRole = "owner" | "member";

export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  role: TeamMemberRole;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends TeamsTables {}
}
