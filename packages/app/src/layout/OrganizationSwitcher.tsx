import type { Schema } from "@quire/client";
import { useId } from "react";
import { useNavigate } from "react-router";
import { t } from "../i18n/index.js";
import { paths } from "../routes/paths.js";

type Organization = Schema<"Organization">;

/** Which of the person's organizations the app shows. */
export function OrganizationSwitcher({
  organizations,
  current,
}: {
  organizations: readonly Organization[];
  current: Organization;
}) {
  const id = useId();
  const navigate = useNavigate();
  return (
    <div className="switcher">
      <label htmlFor={id}>{t("header.organization")}</label>
      <select
        id={id}
        value={current.id}
        onChange={(event) => navigate(paths.organization(event.target.value))}
      >
        {organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.title}
          </option>
        ))}
      </select>
    </div>
  );
}
