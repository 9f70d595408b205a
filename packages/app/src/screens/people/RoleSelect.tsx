import { useId } from "react";
import { t } from "../../i18n/index.js";
import { GUEST, ROLES, type Role, roleKey, roleOf } from "./logic.js";

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
