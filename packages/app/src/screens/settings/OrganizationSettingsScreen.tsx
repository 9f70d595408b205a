import { Navigate, Route, Routes } from "react-router";
import { TabNav } from "../../components/TabNav.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { AuditLogSection } from "./AuditLogSection.js";
import { CustomFieldsSection } from "./CustomFieldsSection.js";
import { GeneralSection } from "./GeneralSection.js";
import { IntegrationsSection } from "./IntegrationsSection.js";
import { OpenApiSection } from "./OpenApiSection.js";
import { SsoSection } from "./SsoSection.js";
import { TranslationsSection } from "./TranslationsSection.js";
import { WebhookDeliveries } from "./WebhookDeliveries.js";
import { WebhooksSection } from "./WebhooksSection.js";
import "./settings.css";

/** The sections, in the navigation's order: each is the last part of its path. */
const SECTIONS: readonly { tab: string; label: MessageKey }[] = [
  { tab: "general", label: "settings.general" },
  { tab: "webhooks", label: "settings.webhooks" },
  { tab: "audit-log", label: "settings.auditLog" },
  { tab: "sso", label: "settings.sso" },
  { tab: "custom-fields", label: "settings.customFields" },
  { tab: "openapi", label: "settings.openapi" },
  { tab: "translations", label: "settings.translations" },
  { tab: "integrations", label: "settings.integrations" },
];

/** The organization's settings: one section at a time, each at a path of its own. */
export default function OrganizationSettingsScreen() {
  const { organization } = useShell();
  const organizationId = organization.id;
  return (
    <div className="settings">
      <h1>{t("settings.title")}</h1>
      <TabNav
        label={t("settings.sections")}
        tabs={SECTIONS}
        to={(tab) => paths.organizationSettings(organizationId, tab)}
      />
      <section className="settings-section">
        <Routes>
          <Route index element={<Navigate to="general" replace />} />
          <Route path="general" element={<GeneralSection organizationId={organizationId} />} />
          <Route path="webhooks" element={<WebhooksSection organizationId={organizationId} />} />
          <Route path="webhooks/:webhookId" element={<WebhookDeliveries organizationId={organizationId} />} />
          <Route path="audit-log" element={<AuditLogSection organizationId={organizationId} />} />
          <Route path="sso" element={<SsoSection organizationId={organizationId} />} />
          <Route path="custom-fields" element={<CustomFieldsSection organizationId={organizationId} />} />
          <Route path="openapi" element={<OpenApiSection organizationId={organizationId} />} />
          <Route path="translations" element={<TranslationsSection organizationId={organizationId} />} />
          <Route path="integrations" element={<IntegrationsSection organizationId={organizationId} />} />
          <Route path="*" element={<p>{t("settings.noSection")}</p>} />
        </Routes>
      </section>
    </div>
  );
}
