import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";

/**
 * Who the person is, as the API tells it. Read only: the contract has no operation to change a user
 * (only `GET /v1/user`).
 */
export function ProfileSection() {
  const user = $api.useQuery("get", "/v1/user");
  return (
    <section className="account-section" aria-labelledby="account-profile">
      <h2 id="account-profile">{t("account.nav.profile")}</h2>
      {user.isPending && <Loading />}
      {user.isError && <ErrorView error={user.error} />}
      {user.data && (
        <>
          <dl className="account-fields">
            <dt>{t("account.profile.name")}</dt>
            <dd>{user.data.displayName}</dd>
            <dt>{t("account.profile.email")}</dt>
            <dd>{user.data.email ?? t("account.profile.noEmail")}</dd>
          </dl>
          <p className="account-note">{t("account.profile.readOnly")}</p>
        </>
      )}
    </section>
  );
}
