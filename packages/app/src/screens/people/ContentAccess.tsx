import type { Schema } from "@quire/client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api, fetchClient } from "../../api/client.js";
import { Dialog } from "../../components/Dialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { MemberFinder } from "./MemberFinder.js";
import { loadedItems, usePages } from "./paged.js";

type Kind = "space" | "collection";
/** Whom a role is given: a member of the organization, or one of its teams. */
type Grantee = { users: [string] } | { teams: [string] };

/** A failed call of openapi-fetch becomes a thrown error body, as openapi-react-query's are. */
async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw error;
}

/**
 * The permissions operations of a space or a collection, and the cache paths they change: a branch
 * per kind, as each path template of the contract types its own call.
 */
function permissionsOf(kind: Kind, id: string) {
  if (kind === "space") {
    const path = { spaceId: id };
    return {
      paths: ["/v1/spaces/{spaceId}/permissions/users", "/v1/spaces/{spaceId}/permissions/teams"],
      usersKey: $api.queryOptions("get", "/v1/spaces/{spaceId}/permissions/users", { params: { path } })
        .queryKey,
      teamsKey: $api.queryOptions("get", "/v1/spaces/{spaceId}/permissions/teams", { params: { path } })
        .queryKey,
      users: (page: string | undefined, signal: AbortSignal) =>
        fetchClient.GET("/v1/spaces/{spaceId}/permissions/users", {
          signal,
          params: { path, query: { page } },
        }),
      teams: (page: string | undefined, signal: AbortSignal) =>
        fetchClient.GET("/v1/spaces/{spaceId}/permissions/teams", {
          signal,
          params: { path, query: { page } },
        }),
      grant: (role: Role, to: Grantee) =>
        done(
          fetchClient.POST("/v1/spaces/{spaceId}/permissions", { params: { path }, body: { role, ...to } }),
        ),
      setUser: (userId: string, role: Role | null) =>
        done(
          fetchClient.PATCH("/v1/spaces/{spaceId}/permissions/users/{userId}", {
            params: { path: { ...path, userId } },
            body: { role },
          }),
        ),
      setTeam: (teamId: string, role: Role | null) =>
        done(
          fetchClient.PATCH("/v1/spaces/{spaceId}/permissions/teams/{teamId}", {
            params: { path: { ...path, teamId } },
            body: { role },
          }),
        ),
    };
  }
  const path = { collectionId: id };
  return {
    paths: [
      "/v1/collections/{collectionId}/permissions/users",
      "/v1/collections/{collectionId}/permissions/teams",
    ],
    usersKey: $api.queryOptions("get", "/v1/collections/{collectionId}/permissions/users", {
      params: { path },
    }).queryKey,
    teamsKey: $api.queryOptions("get", "/v1/collections/{collectionId}/permissions/teams", {
      params: { path },
    }).queryKey,
    users: (page: string | undefined, signal: AbortSignal) =>
      fetchClient.GET("/v1/collections/{collectionId}/permissions/users", {
        signal,
        params: { path, query: { page } },
      }),
    teams: (page: string | undefined, signal: AbortSignal) =>
      fetchClient.GET("/v1/collections/{collectionId}/permissions/teams", {
        signal,
        params: { path, query: { page } },
      }),
    grant: (role: Role, to: Grantee) =>
      done(
        fetchClient.POST("/v1/collections/{collectionId}/permissions", {
          params: { path },
          body: { role, ...to },
        }),
      ),
    setUser: (userId: string, role: Role | null) =>
      done(
        fetchClient.PATCH("/v1/collections/{collectionId}/permissions/users/{userId}", {
          params: { path: { ...path, userId } },
          body: { role },
        }),
      ),
    setTeam: (teamId: string, role: Role | null) =>
      done(
        fetchClient.PATCH("/v1/collections/{collectionId}/permissions/teams/{teamId}", {
          params: { path: { ...path, teamId } },
          body: { role },
        }),
      ),
  };
}

/**
 * The **Share** button of a space or a collection: a dialog telling who has which role on it (people
 * and teams), where each can be changed or removed, and a member or a team given a role.
 */
export function ContentAccess({
  kind,
  id,
  organizationId,
}: {
  kind: Kind;
  id: string;
  organizationId: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t("people.share.button")}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t("people.share.button")}>
        <AccessList kind={kind} id={id} organizationId={organizationId} />
        <div className="dialog-actions">
          <button type="button" onClick={() => setOpen(false)}>
            {t("people.close")}
          </button>
        </div>
      </Dialog>
    </>
  );
}

function AccessList({ kind, id, organizationId }: { kind: Kind; id: string; organizationId: string }) {
  const api = permissionsOf(kind, id);
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all(api.paths.map((path) => queryClient.invalidateQueries({ queryKey: ["get", path] })));
  const users = usePages<Schema<"UserContentPermission">>(api.usersKey, api.users);
  const teams = usePages<Schema<"TeamContentPermission">>(api.teamsKey, api.teams);
  // Every change is one call to the server, then both lists are read again.
  const change = useMutation({ mutationFn: (call: () => Promise<void>) => call(), onSettled: refresh });
  const [role, setRole] = useState<Role>("read");
  const userItems = loadedItems(users.data);
  const teamItems = loadedItems(teams.data);
  const headingId = useId();

  return (
    <div className="content-access">
      {change.error != null && <ErrorView error={change.error} />}
      <h3 id={`${headingId}-people`}>{t("people.share.people")}</h3>
      {users.isPending && <Loading />}
      {users.isError && <ErrorView error={users.error} />}
      {users.isSuccess && userItems.length === 0 && <p>{t("people.share.noPeople")}</p>}
      {userItems.length > 0 && (
        <ul className="people-cards" aria-labelledby={`${headingId}-people`}>
          {userItems.map(({ user, permission }) => (
            <li key={user.id} className="people-card">
              <span className="member-who">
                <span className="member-name">{user.displayName}</span>
                <span className="member-email">{user.email}</span>
              </span>
              <RoleSelect
                label={t("people.members.roleOf", { name: user.displayName })}
                value={permission}
                onChange={(next) => change.mutate(() => api.setUser(user.id, next))}
              />
              <button
                type="button"
                aria-label={t("people.share.removeNamed", { name: user.displayName })}
                onClick={() => change.mutate(() => api.setUser(user.id, null))}
              >
                {t("people.members.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3 id={`${headingId}-teams`}>{t("people.tab.teams")}</h3>
      {teams.isPending && <Loading />}
      {teams.isError && <ErrorView error={teams.error} />}
      {teams.isSuccess && teamItems.length === 0 && <p>{t("people.share.noTeams")}</p>}
      {teamItems.length > 0 && (
        <ul className="people-cards" aria-labelledby={`${headingId}-teams`}>
          {teamItems.map(({ team, permission }) => (
            <li key={team.id} className="people-card">
              <span className="people-card-title">{team.title}</span>
              <RoleSelect
                label={t("people.share.roleOfTeam", { title: team.title })}
                value={permission}
                onChange={(next) => change.mutate(() => api.setTeam(team.id, next))}
              />
              <button
                type="button"
                aria-label={t("people.share.removeNamed", { name: team.title })}
                onClick={() => change.mutate(() => api.setTeam(team.id, null))}
              >
                {t("people.members.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>{t("people.share.add")}</h3>
      <RoleSelect
        label={t("people.share.roleToGive")}
        value={role}
        onChange={(next) => setRole(next ?? "read")}
        showLabel
      />
      <MemberFinder
        organizationId={organizationId}
        actionLabel={(name) => t("people.share.give", { name })}
        disabled={change.isPending}
        onPick={(member) => change.mutate(() => api.grant(role, { users: [member.id] }))}
      />
      <TeamGrant
        organizationId={organizationId}
        onGrant={(teamId) => change.mutate(() => api.grant(role, { teams: [teamId] }))}
      />
    </div>
  );
}

/** Picks one of the organization's teams to give the chosen role. */
function TeamGrant({
  organizationId,
  onGrant,
}: {
  organizationId: string;
  onGrant: (teamId: string) => void;
}) {
  const teams = $api.useQuery("get", "/v1/orgs/{organizationId}/teams", {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  const [teamId, setTeamId] = useState("");
  const id = useId();
  const items = teams.data?.items ?? [];
  if (teams.isError) return <ErrorView error={teams.error} />;
  if (items.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = teamId || items[0]?.id;
    if (chosen) onGrant(chosen);
  };
  return (
    <form className="people-toolbar" onSubmit={submit}>
      <label htmlFor={id}>{t("people.share.team")}</label>
      <select id={id} value={teamId} onChange={(event) => setTeamId(event.target.value)}>
        {items.map((team) => (
          <option key={team.id} value={team.id}>
            {team.title}
          </option>
        ))}
      </select>
      <button type="submit">{t("people.share.giveTeam")}</button>
    </form>
  );
}
