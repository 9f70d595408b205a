import { Navigate, NavLink, Route, Routes } from "react-router";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { InvitePeople } from "./InvitePeople.js";
import { InvitesTab } from "./InvitesTab.js";
import { MembersTab } from "./MembersTab.js";
import { TeamsTab } from "./TeamsTab.js";
import "./people.css";

const TABS = [
  { tab: "members", label: "people.tab.members" },
  { tab: "teams", label: "people.tab.teams" },
  { tab: "invites", label: "people.tab.invites" },
] as const;

/** The organization's people: its members, its teams and its invitations, one tab (a path) each. */
export default function PeopleScreen() {
  const { organization } = useShell();
  const organizationId = organization.id;
  return (
    <div className="people">
      <div className="people-header">
        <h1>{t("people.title")}</h1>
        {organization.permissions.admin && <InvitePeople organizationId={organizationId} />}
      </div>
      <nav className="people-tabs" aria-label={t("people.sections")}>
        <ul>
          {TABS.map(({ tab, label }) => (
            <li key={tab}>
              <NavLink to={paths.people(organizationId, tab)}>{t(label)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<Navigate to={paths.people(organizationId)} replace />} />
        <Route path="members" element={<MembersTab organizationId={organizationId} />} />
        <Route path="teams/*" element={<TeamsTab organizationId={organizationId} />} />
        <Route path="invites" element={<InvitesTab organizationId={organizationId} />} />
        <Route path="*" element={<p>{t("error.not_found")}</p>} />
      </Routes>
    </div>
  );
}
