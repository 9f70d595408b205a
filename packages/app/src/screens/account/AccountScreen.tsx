import type { ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router";
import { TabNav } from "../../components/TabNav.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { FactorsSection } from "./FactorsSection.js";
import { PasswordSection } from "./PasswordSection.js";
import { ProfileSection } from "./ProfileSection.js";
import { SessionsSection } from "./SessionsSection.js";
import { TokensSection } from "./TokensSection.js";
import "./account.css";

/** The sections, each at `/settings/<tab>` (a deep link the back button returns to). */
const SECTIONS: readonly { tab: string; label: MessageKey; Section: ComponentType }[] = [
  { tab: "profile", label: "account.nav.profile", Section: ProfileSection },
  { tab: "password", label: "account.nav.password", Section: PasswordSection },
  { tab: "factors", label: "account.nav.factors", Section: FactorsSection },
  { tab: "sessions", label: "account.nav.sessions", Section: SessionsSection },
  { tab: "tokens", label: "account.nav.tokens", Section: TokensSection },
];

/** The person's own settings: profile, password, second factors, sessions and API tokens. */
export default function AccountScreen() {
  return (
    <div className="account-screen">
      <h1>{t("account.title")}</h1>
      <TabNav label={t("account.nav")} tabs={SECTIONS} to={paths.account} />
      <Routes>
        {SECTIONS.map(({ tab, Section }) => (
          <Route key={tab} path={tab} element={<Section />} />
        ))}
        {/* `/settings` and a section that does not exist open the first. */}
        <Route path="*" element={<Navigate to={paths.account()} replace />} />
      </Routes>
    </div>
  );
}
