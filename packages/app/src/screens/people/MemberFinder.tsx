import type { Schema } from "@quire/client";
import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { MEMBERS } from "./members.js";

/** How many matches are offered: enough to pick from, typing more narrows them. */
const MATCHES = 8;

/**
 * Finds a member of the organization by name or email (the server searches, however many there are)
 * and offers a button for each match, named by `actionLabel`, that calls `onPick`.
 */
export function MemberFinder({
  organizationId,
  actionLabel,
  onPick,
  disabled = false,
}: {
  organizationId: string;
  actionLabel: (name: string) => string;
  onPick: (member: Schema<"Member">) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState("");
  const id = useId();
  const words = search.trim();
  const matches = $api.useQuery(
    "get",
    MEMBERS,
    { params: { path: { organizationId }, query: { search: words, limit: MATCHES } } },
    { enabled: words !== "" },
  );
  return (
    <div className="member-finder">
      <label htmlFor={id}>{t("people.finder.label")}</label>
      <input id={id} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      {matches.isError && <ErrorView error={matches.error} />}
      {words !== "" && matches.data && (
        <>
          {matches.data.items.length === 0 && <p>{t("people.finder.none", { search: words })}</p>}
          <ul className="people-cards" aria-label={t("people.finder.matches")}>
            {matches.data.items.map((member) => (
              <li key={member.id} className="people-card">
                <span className="member-who">
                  <span className="member-name">{member.user.displayName}</span>
                  <span className="member-email">{member.user.email}</span>
                </span>
                <button type="button" disabled={disabled} onClick={() => onPick(member)}>
                  {actionLabel(member.user.displayName)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
