import type { Schema } from "@quire/client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api, fetchClient } from "../../api/client.js";
import { errorType } from "../../api/errors.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { formatTime } from "./format.js";

type Session = Schema<"Session">;

const SESSIONS = "/v1/user/sessions";

/**
 * The browsers signed in to the account, this one marked, each other one with Sign out, and Sign out
 * everywhere else (one revocation per other session: the contract's `DELETE /v1/user/sessions` would
 * end this one too).
 */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = $api.useQuery("get", SESSIONS);
  const [said, setSaid] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["get", SESSIONS] });
  const revoke = $api.useMutation("delete", "/v1/user/sessions/{sessionId}", {
    onSuccess: () => setSaid(t("account.sessions.signedOut")),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: async (others: readonly Session[]) => {
      for (const { id } of others) {
        const { error } = await fetchClient.DELETE("/v1/user/sessions/{sessionId}", {
          params: { path: { sessionId: id } },
        });
        // A session that ended meanwhile is as good as signed out.
        if (error && errorType(error) !== "not_found") throw error;
      }
    },
    onSuccess: () => setSaid(t("account.sessions.signedOutOthers")),
    onSettled: refresh,
  });
  const id = useId();
  const others = sessions.data?.items.filter((session) => !session.current) ?? [];
  const busy = revoke.isPending || revokeOthers.isPending;
  const start = () => {
    setSaid("");
    revoke.reset();
    revokeOthers.reset();
  };

  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("account.nav.sessions")}</h2>
      <p>{t("account.sessions.intro")}</p>
      {sessions.isPending && <Loading />}
      {sessions.isError && <ErrorView error={sessions.error} />}
      {sessions.data && (
        <>
          <ul className="account-list" aria-labelledby={`${id}-heading`}>
            {sessions.data.items.map((session) => (
              <li key={session.id}>
                <div className="account-item-text" id={`${id}-${session.id}`}>
                  <p className="account-item-title">
                    {session.device ?? t("account.sessions.unknownDevice")}
                    {session.current && (
                      <span className="account-badge">{t("account.sessions.thisDevice")}</span>
                    )}
                  </p>
                  <p className="account-item-detail">
                    {t("account.sessions.lastSeen", { time: formatTime(session.lastSeenAt) })}
                  </p>
                  <p className="account-item-detail">
                    {t("account.sessions.began", {
                      time: formatTime(session.createdAt),
                      method: t(`account.sessions.method.${session.method}`),
                    })}
                    {session.address && ` ${t("account.sessions.from", { address: session.address })}`}
                  </p>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    disabled={busy}
                    aria-describedby={`${id}-${session.id}`}
                    onClick={() => {
                      start();
                      revoke.mutate({ params: { path: { sessionId: session.id } } });
                    }}
                  >
                    {t("account.sessions.signOut")}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others.length === 0 ? (
            <p>{t("account.sessions.onlyOne")}</p>
          ) : (
            <button
              type="button"
              className="account-danger"
              disabled={busy}
              onClick={() => {
                start();
                revokeOthers.mutate(others);
              }}
            >
              {t("account.sessions.signOutOthers")}
            </button>
          )}
        </>
      )}
      {revoke.isError && <ErrorView error={revoke.error} />}
      {revokeOthers.isError && <ErrorView error={revokeOthers.error} />}
      <p role="status">{said}</p>
    </section>
  );
}
