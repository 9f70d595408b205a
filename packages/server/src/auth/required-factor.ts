import type { OperationId } from "@quire/api-types";
import { type Expression, type SqlBool, sql } from "kysely";
import { ApiError } from "../http/errors.js";

/**
 * SQL: the user is a member (or guest) of an organization that requires a second factor, and has no
 * confirmed one. Selected beside the user where a credential is checked, so that it costs no statement
 * of its own. `user_factors` is the accounts area's table, named here as SQL: the kernel imports no area.
 */
export function lacksRequiredFactor(userId: Expression<string>) {
  return sql<SqlBool>`(exists (select 1 from memberships m
      inner join organizations o on o.id = m.organization_id
      where m.user_id = ${userId} and o.require_second_factor = 1)
    and not exists (select 1 from user_factors f where f.user_id = ${userId} and f.confirmed_at is not null))`;
}

/**
 * What a caller lacking a required second factor may still do: read who they are, see and end their
 * sessions, change their password and add a factor. Everything else answers `secondFactorRequired()`.
 */
export const OPEN_WITHOUT_REQUIRED_FACTOR: ReadonlySet<OperationId> = new Set<OperationId>([
  "getAuthenticatedUser",
  "listUserSessions",
  "revokeUserSession",
  "revokeUserSessions",
  "changeUserPassword",
  "listUserFactors",
  "startUserTotp",
  "confirmUserTotp",
  "startUserPasskey",
  "registerUserPasskey",
  "deleteUserFactor",
  "regenerateUserRecoveryCodes",
]);

export const secondFactorRequired = (
  message = "An organization you are a member of requires a second factor: add one (an authenticator app or a passkey, under /user/factors) to continue.",
) => new ApiError(403, message, { type: "second_factor_required" });
