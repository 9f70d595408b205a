import type { Schema } from "@quire/client";
import { useId } from "react";
import { type MessageKey, t } from "../i18n/index.js";

export type Role = Schema<"MemberRole">;

/** The contract's roles, from the most to the least powerful (GitBook's order). */
export const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];

/** A select's value for a role; a guest (no role) is the empty value. */
export const GUEST = "";

/** The name shown for each role, and for none (a guest). */
export const roleKey = (role: Role | null): MessageKey => (role === null ? "role.guest" : `role.${role}`);

/** The role a select's value stands for (`GUEST`: none). */
export const roleOf = (value: string): Role | null => ROLES.find((role) => role === value) ?? null;

/**
 * A select of the contract's roles labelled `label` (shown with `showLabel`, else for screen readers
 * only: a row names its member already); with `guest`, also none (a guest of the organization).
 */
export function RoleSelect({
  label,
  value,
  onChange,
  guest = false,
  showLabel = false,
}: {
  label: string;
  value: Role | null;
  onChange: (role: Role | null) => void;
  guest?: boolean;
  showLabel?: boolean;
}) {
  const id = useId();
  return (
    <span className="role-select">
      <label htmlFor={id} className={showLabel ? undefined : "visually-hidden"}>
        {label}
      </label>
      <select id={id} value={value ?? GUEST} onChange={(event) => onChange(roleOf(event.target.value))}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(roleKey(role))}
          </option>
        ))}
        {guest && <option value={GUEST}>{t(roleKey(null))}</option>}
      </select>
    </span>
  );
}
