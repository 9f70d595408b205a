import { sql } from "kysely";
import { expect, it } from "vitest";
import { accountsColumns } from "../accounts/tables.columns.js";
import { auditColumns } from "../audit/tables.columns.js";
import { changeRequestsColumns } from "../change-requests/tables.columns.js";
import { commentsColumns } from "../comments/tables.columns.js";
import { contentColumns } from "../content/tables.columns.js";
import { customFieldsColumns } from "../custom-fields/tables.columns.js";
import { eventsColumns } from "../events/tables.columns.js";
import { filesColumns } from "../files/tables.columns.js";
import { gitSyncColumns } from "../git-sync/tables.columns.js";
import { idempotencyColumns } from "../idempotency/tables.columns.js";
import { integrationsColumns } from "../integrations/tables.columns.js";
import { invitesColumns } from "../invites/tables.columns.js";
import { jobsColumns } from "../jobs/tables.columns.js";
import { limitsColumns } from "../limits/tables.columns.js";
import { membersColumns } from "../members/tables.columns.js";
import { oidcColumns } from "../oidc/tables.columns.js";
import { openApiSpecsColumns } from "../openapi-specs/tables.columns.js";
import { reviewsColumns } from "../reviews/tables.columns.js";
import { searchColumns } from "../search/tables.columns.js";
import { sitesColumns } from "../sites/tables.columns.js";
import { ssoColumns } from "../sso/tables.columns.js";
import { teamsColumns } from "../teams/tables.columns.js";
import { openTestDatabase, ownTables, testDatabaseKind } from "../testing/database.js";
import { translationsColumns } from "../translations/tables.columns.js";
import { webhooksColumns } from "../webhooks/tables.columns.js";
import type { ColumnsOf } from "./columns.js";
import { migrate } from "./database.js";
import type { Database } from "./schema.js";

/** The tables declared outside schema.ts (kernel folders and areas), with their columns beside them. */
const areaColumns = {
  ...accountsColumns,
  ...customFieldsColumns,
  ...filesColumns,
  ...openApiSpecsColumns,
  ...translationsColumns,
  ...gitSyncColumns,
  ...integrationsColumns,
  ...jobsColumns,
  ...eventsColumns,
  ...limitsColumns,
  ...idempotencyColumns,
  ...membersColumns,
  ...teamsColumns,
  ...invitesColumns,
  ...ssoColumns,
  ...oidcColumns,
  ...changeRequestsColumns,
  ...contentColumns,
  ...commentsColumns,
  ...reviewsColumns,
  ...sitesColumns,
  ...searchColumns,
  ...webhooksColumns,
  ...auditColumns,
};

/** Every column of every table with whether it holds null, as `Database` says. */
const expectedColumns: ColumnsOf<Database> = {
  ...areaColumns,
  server_secrets: { name: "not null", value: "not null" },
  sessions: {
    id: "not null",
    secret_hash: "not null",
    user_id: "not null",
    method: "not null",
    device: "null",
    address: "null",
    created_at: "not null",
    last_seen_at: "not null",
    expires_at: "not null",
  },
  users: {
    id: "not null",
    display_name: "not null",
    email: "not null",
    photo_url: "null",
    created_at: "not null",
  },
  api_tokens: {
    id: "not null",
    user_id: "not null",
    token_hash: "not null",
    label: "not null",
    created_at: "not null",
  },
  organizations: {
    id: "not null",
    title: "not null",
    type: "not null",
    use_case: "null",
    community_type: "null",
    hostname: "null",
    email_domains: "not null",
    default_role: "null",
    default_content_site: "null",
    sso: "not null",
    ai: "not null",
    invite_links: "not null",
    plan: "not null",
    logo_url: "null",
    trial_status: "not null",
    created_at: "not null",
    updated_at: "not null",
    merge_rules: "null",
    require_second_factor: "not null",
  },
  collections: {
    id: "not null",
    organization_id: "not null",
    parent_id: "null",
    title: "not null",
    description: "null",
    default_level: "not null",
    default_level_inherited: "not null",
    position: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  spaces: {
    id: "not null",
    organization_id: "not null",
    parent_id: "null",
    title: "not null",
    emoji: "not null",
    visibility: "not null",
    edit_mode: "not null",
    default_level: "not null",
    default_level_inherited: "not null",
    revision_id: "not null",
    position: "not null",
    created_at: "not null",
    updated_at: "not null",
    deleted_at: "null",
    open_comments: "not null",
    change_requests: "not null",
    open_change_requests: "not null",
    draft_change_requests: "not null",
    git_sync: "null",
    merge_rules: "null",
    language: "null",
  },
};

it(`migrations build the tables and columns of schema.ts on an empty ${testDatabaseKind} database`, async () => {
  const { db, close } = await openTestDatabase();
  try {
    await migrate(db);
    const tables = await ownTables(db);
    const actual: Record<string, Record<string, string>> = {};
    for (const table of tables) {
      // SQLite lets a primary key that is not an INTEGER hold null unless declared NOT NULL, which
      // 0001_initial left out (every insert gives an id): such a key reads as nullable for that alone.
      const primaryKey = new Set<string>();
      if (testDatabaseKind === "sqlite") {
        const { rows } = await sql<{
          name: string;
        }>`select name from pragma_table_info(${table.name}) where pk > 0`.execute(db);
        for (const { name } of rows) primaryKey.add(name);
      }
      actual[table.name] = Object.fromEntries(
        table.columns.map((column) => [
          column.name,
          column.isNullable && !primaryKey.has(column.name) ? "null" : "not null",
        ]),
      );
    }
    expect(actual).toEqual(expectedColumns);
  } finally {
    await close();
  }
});
