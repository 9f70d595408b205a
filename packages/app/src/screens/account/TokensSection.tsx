import { t } from "../../i18n/index.js";

/**
 * API tokens: the contract has no operation to list, create or revoke them, so the section says how
 * the server's command line does it until the API does.
 */
export function TokensSection() {
  return (
    <section className="account-section" aria-labelledby="account-tokens">
      <h2 id="account-tokens">{t("account.nav.tokens")}</h2>
      <p>{t("account.tokens.intro")}</p>
      <p>{t("account.tokens.unavailable")}</p>
      <dl className="account-commands">
        <dt>{t("account.tokens.create")}</dt>
        <dd>
          <code>quire token create --email &lt;email&gt; --label &lt;label&gt;</code>
        </dd>
        <dt>{t("account.tokens.list")}</dt>
        <dd>
          <code>quire token list --email &lt;email&gt;</code>
        </dd>
        <dt>{t("account.tokens.revoke")}</dt>
        <dd>
          <code>quire token revoke --id &lt;tokenId&gt;</code>
        </dd>
      </dl>
    </section>
  );
}
