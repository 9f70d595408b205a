import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Link, Route, Routes, useNavigate, useParams } from "react-router";
import { $api, fetchClient } from "../../api/client.js";
import { Dialog } from "../../components/Dialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { MemberFinder } from "./MemberFinder.js";
import { loadedItems, usePages } from "./paged.js";

const TEAMS = "/v1/orgs/{organizationId}/teams";
const TEAM = "/v1/orgs/{organizationId}/teams/{teamId}";
const TEAM_MEMBERS = "/v1/orgs/{organizationId}/teams/{teamId}/members";
const TEAM_MEMBER = "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}";

const teamPath = (organizationId: string, teamId: string) =>
  paths.people(organizationId, `teams/${encodeURIComponent(teamId)}`);

/** Refreshes every cached list of teams and of their members (their counts change together). */
function useRefreshTeams() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [TEAMS, TEAM, TEAM_MEMBERS].map((path) => queryClient.invalidateQueries({ queryKey: ["get", path] })),
    );
}

/** The organization's teams, a form to create one, and the team chosen (its own path, deep-linkable). */
export function TeamsTab({ organizationId }: { organizationId: string }) {
  const { organization } = useShell();
  const id = useId();
  const init = { params: { path: { organizationId } } };
  const teams = usePages<Schema<"Team">>($api.queryOptions("get", TEAMS, init).queryKey, (page, signal) =>
    fetchClient.GET(TEAMS, { signal, params: { path: { organizationId }, query: { page } } }),
  );
  const items = loadedItems(teams.data);
  return (
    <section className="people-tab" aria-labelledby={id}>
      <h2 id={id}>{t("people.tab.teams")}</h2>
      {organization.permissions.admin && <CreateTeam organizationId={organizationId} />}
      {teams.isPending && <Loading />}
      {teams.isError && <ErrorView error={teams.error} />}
      {teams.isSuccess && items.length === 0 && <p>{t("people.teams.none")}</p>}
      {items.length > 0 && (
        <ul className="people-cards" aria-label={t("people.tab.teams")}>
          {items.map((team) => (
            <li key={team.id} className="people-card">
              <Link to={teamPath(organizationId, team.id)} className="people-card-title">
                {team.title}
              </Link>
              <span className="member-email">{t("people.teams.memberCount", { count: team.members })}</span>
            </li>
          ))}
        </ul>
      )}
      {teams.hasNextPage && (
        <button type="button" onClick={() => void teams.fetchNextPage()} disabled={teams.isFetchingNextPage}>
          {t("people.more")}
        </button>
      )}
      <Routes>
        <Route path=":teamId" element={<TeamView organizationId={organizationId} />} />
      </Routes>
    </section>
  );
}

/** A team's title (at most 64 characters, the contract's limit) and the button sending it, then `children`. */
function TitleForm({
  label,
  title,
  onChange,
  onSubmit,
  submitLabel,
  pending,
  children,
}: {
  label: string;
  title: string;
  onChange(title: string): void;
  onSubmit(event: FormEvent): void;
  submitLabel: string;
  pending: boolean;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <form className="people-toolbar" onSubmit={onSubmit}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={title}
        required
        maxLength={64}
        onChange={(event) => onChange(event.target.value)}
      />
      <button type="submit" disabled={pending}>
        {submitLabel}
      </button>
      {children}
    </form>
  );
}

function CreateTeam({ organizationId }: { organizationId: string }) {
  const refresh = useRefreshTeams();
  const navigate = useNavigate();
  const create = $api.useMutation("put", TEAMS, { onSuccess: refresh });
  const [title, setTitle] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === "") return;
    create.mutate(
      { params: { path: { organizationId } }, body: { title: title.trim() } },
      {
        onSuccess: (team) => {
          setTitle("");
          navigate(teamPath(organizationId, team.id));
        },
      },
    );
  };
  return (
    <>
      <TitleForm
        label={t("people.teams.newTitle")}
        title={title}
        onChange={setTitle}
        onSubmit={submit}
        submitLabel={t("people.teams.create")}
        pending={create.isPending}
      />
      {create.error != null && <ErrorView error={create.error} />}
    </>
  );
}

/** One team: rename it, delete it, and its members (add one of the organization's, remove). */
function TeamView({ organizationId }: { organizationId: string }) {
  const teamId = useParams().teamId ?? "";
  const team = $api.useQuery("get", TEAM, { params: { path: { organizationId, teamId } } });
  const id = useId();
  if (team.isPending) return <Loading />;
  if (team.isError) return <ErrorView error={team.error} />;
  return (
    <section className="team-view" aria-labelledby={id}>
      <h3 id={id}>{team.data.title}</h3>
      {team.data.permissions.admin && (
        <TeamSettings key={team.data.id} organizationId={organizationId} team={team.data} />
      )}
      <TeamMembers organizationId={organizationId} team={team.data} />
    </section>
  );
}

function TeamSettings({ organizationId, team }: { organizationId: string; team: Schema<"Team"> }) {
  const refresh = useRefreshTeams();
  const navigate = useNavigate();
  const path = { organizationId, teamId: team.id };
  const rename = $api.useMutation("patch", TEAM, { onSuccess: refresh });
  const remove = $api.useMutation("delete", TEAM, {
    onSuccess: () => {
      navigate(paths.people(organizationId, "teams"));
      return refresh();
    },
  });
  const [title, setTitle] = useState(team.title);
  const [confirming, setConfirming] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() !== "") rename.mutate({ params: { path }, body: { title: title.trim() } });
  };
  return (
    <>
      <TitleForm
        label={t("people.teams.titleOf", { title: team.title })}
        title={title}
        onChange={setTitle}
        onSubmit={submit}
        submitLabel={t("people.teams.rename")}
        pending={rename.isPending}
      >
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t("people.teams.delete")}
        </button>
      </TitleForm>
      {rename.error != null && <ErrorView error={rename.error} />}
      {remove.error != null && <ErrorView error={remove.error} />}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t("people.teams.deleteTitle", { title: team.title })}
      >
        <p>{t("people.teams.deleteText")}</p>
        <div className="dialog-actions">
          <button
            type="button"
            className="danger"
            onClick={() => {
              setConfirming(false);
              remove.mutate({ params: { path } });
            }}
          >
            {t("people.teams.delete")}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t("people.cancel")}
          </button>
        </div>
      </Dialog>
    </>
  );
}

function TeamMembers({ organizationId, team }: { organizationId: string; team: Schema<"Team"> }) {
  const refresh = useRefreshTeams();
  const path = { organizationId, teamId: team.id };
  const members = usePages<Schema<"TeamMember">>(
    $api.queryOptions("get", TEAM_MEMBERS, { params: { path } }).queryKey,
    (page, signal) => fetchClient.GET(TEAM_MEMBERS, { signal, params: { path, query: { page } } }),
  );
  const add = $api.useMutation("put", TEAM_MEMBER, { onSuccess: refresh });
  const remove = $api.useMutation("delete", TEAM_MEMBER, { onSuccess: refresh });
  const items = loadedItems(members.data);
  const id = useId();
  return (
    <>
      <h4 id={id}>{t("people.teams.members", { title: team.title })}</h4>
      {members.isPending && <Loading />}
      {members.isError && <ErrorView error={members.error} />}
      {members.isSuccess && items.length === 0 && <p>{t("people.teams.noMembers")}</p>}
      {items.length > 0 && (
        <ul className="people-cards" aria-labelledby={id}>
          {items.map(({ organization: member }) => (
            <li key={member.id} className="people-card">
              <span className="member-who">
                <span className="member-name">{member.user.displayName}</span>
                <span className="member-email">{member.user.email}</span>
              </span>
              {team.permissions.admin && (
                <button
                  type="button"
                  aria-label={t("people.teams.removeMember", {
                    name: member.user.displayName,
                    title: team.title,
                  })}
                  onClick={() => remove.mutate({ params: { path: { ...path, userId: member.id } } })}
                >
                  {t("people.members.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {members.hasNextPage && (
        <button
          type="button"
          onClick={() => void members.fetchNextPage()}
          disabled={members.isFetchingNextPage}
        >
          {t("people.more")}
        </button>
      )}
      {add.error != null && <ErrorView error={add.error} />}
      {remove.error != null && <ErrorView error={remove.error} />}
      {team.permissions.admin && (
        <MemberFinder
          organizationId={organizationId}
          actionLabel={(name) => t("people.teams.addMember", { name })}
          disabled={add.isPending}
          onPick={(member) => add.mutate({ params: { path: { ...path, userId: member.id } }, body: {} })}
        />
      )}
    </>
  );
}
