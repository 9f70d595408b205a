import { t } from "../../i18n/index.js";
import { OidcProviders } from "./OidcProviders.js";
import { SamlProviders } from "./SamlProviders.js";

/** Single sign-on: the organization's SAML and OpenID Connect providers. */
export function SsoSection({ organizationId }: { organizationId: string }) {
  return (
    <>
      <h2>{t("settings.sso")}</h2>
      <p>{t("settings.sso.intro")}</p>
      <SamlProviders organizationId={organizationId} />
      <OidcProviders organizationId={organizationId} />
    </>
  );
}
