import type { Schema } from "@quire/client";
import { useId, useRef, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { TitleField } from "../../components/TitleField.js";
import { t } from "../../i18n/index.js";
import { booleanClaims } from "./adaptive.js";
import { conditionChange, sectionChanges, withClaim } from "./conditions.js";
import { type SiteSection, type SiteTabProps, useAdaptiveSchema, useRefreshSites } from "./queries.js";

type SiteSpace = Schema<"SiteSpace">;

const SECTION = "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}";
const SITE_SPACE = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}";

interface ConditionFieldProps extends SiteTabProps {
  value: string;
  onChange(value: string): void;
}

/**
 * The Condition of a section or site space, as typed, with what the language is and a button per
 * boolean attribute of the site's adaptive schema adding its test to the expression.
 */
function ConditionField({ organizationId, site, value, onChange }: ConditionFieldProps) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const schema = useAdaptiveSchema(organizationId, site.id);
  const claims = booleanClaims(schema.data?.jsonSchema);
  return (
    <>
      <label htmlFor={`${id}-condition`}>{t("sites.condition.label")}</label>
      <textarea
        ref={field}
        id={`${id}-condition`}
        className="condition-field"
        rows={3}
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        {t("sites.condition.hint")}
      </p>
      {schema.isError && <ErrorView error={schema.error} />}
      {claims.length > 0 && (
        <fieldset className="claim-buttons">
          <legend>{t("sites.condition.insertClaim")}</legend>
          {claims.map((claim) => (
            <button
              key={claim.path}
              type="button"
              onClick={() => {
                onChange(withClaim(value, claim.path));
                // Back to the field, which now reads the added test, to go on typing.
                field.current?.focus();
              }}
            >
              {claim.path}
            </button>
          ))}
        </fieldset>
      )}
      {schema.data && claims.length === 0 && <p className="hint">{t("sites.condition.noClaims")}</p>}
    </>
  );
}

/** "Shown when: …" under an item with a condition; nothing for one that everyone sees. */
export function ShownWhen({ condition }: { condition: string | undefined }) {
  if (condition === undefined || condition === "") return null;
  return (
    <p className="hint">
      {t("sites.condition.shownWhen")} <code className="condition">{condition}</code>
    </p>
  );
}

/** "Edit <section>": its title, path and condition; sends only what changed. */
export function EditSection({ organizationId, site, section }: SiteTabProps & { section: SiteSection }) {
  const id = useId();
  const refresh = useRefreshSites();
  const [title, setTitle] = useState("");
  const [path, setPath] = useState("");
  const [condition, setCondition] = useState("");
  const [emptyTitle, setEmptyTitle] = useState(false);
  const edit = $api.useMutation("patch", SECTION, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("sites.sections.edit")}
      context={section.title}
      heading={t("sites.sections.editHeading")}
      submitLabel={t("sites.sections.save")}
      pending={edit.isPending}
      error={edit.error}
      onOpen={() => {
        edit.reset();
        setTitle(section.title);
        setPath(section.path);
        setCondition(section.condition ?? "");
        setEmptyTitle(false);
      }}
      onSubmit={(close) => {
        setEmptyTitle(title.trim() === "");
        if (title.trim() === "") return;
        const body = sectionChanges(section, { title, path, condition });
        if (Object.keys(body).length === 0) return close();
        edit.mutate(
          {
            params: { path: { organizationId, siteId: site.id, siteSectionId: section.id } },
            body,
          },
          { onSuccess: close },
        );
      }}
    >
      <TitleField value={title} onChange={setTitle} empty={emptyTitle} />
      <label htmlFor={`${id}-path`}>{t("sites.sections.path")}</label>
      <input
        id={`${id}-path`}
        value={path}
        onChange={(event) => setPath(event.target.value)}
        aria-describedby={`${id}-path-hint`}
      />
      <p id={`${id}-path-hint`} className="hint">
        {t("sites.sections.pathHint")}
      </p>
      <ConditionField organizationId={organizationId} site={site} value={condition} onChange={setCondition} />
    </FormDialog>
  );
}

/** "Edit condition of <site space>": who sees that space within its section. */
export function EditSiteSpaceCondition({
  organizationId,
  site,
  siteSpace,
}: SiteTabProps & { siteSpace: SiteSpace }) {
  const refresh = useRefreshSites();
  const [condition, setCondition] = useState("");
  const edit = $api.useMutation("patch", SITE_SPACE, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("sites.siteSpaces.editCondition")}
      context={t("sites.siteSpaces.ofSpace", { title: siteSpace.title })}
      heading={t("sites.siteSpaces.editConditionHeading", { title: siteSpace.title })}
      submitLabel={t("sites.sections.save")}
      pending={edit.isPending}
      error={edit.error}
      onOpen={() => {
        edit.reset();
        setCondition(siteSpace.condition ?? "");
      }}
      onSubmit={(close) => {
        const body = conditionChange(siteSpace.condition, condition);
        if (body.condition === undefined) return close();
        edit.mutate(
          { params: { path: { organizationId, siteId: site.id, siteSpaceId: siteSpace.id } }, body },
          { onSuccess: close },
        );
      }}
    >
      <ConditionField organizationId={organizationId} site={site} value={condition} onChange={setCondition} />
    </FormDialog>
  );
}

/** The site spaces of a section, each with who sees it and its Edit condition. */
export function SiteSpaceList({ organizationId, site, section }: SiteTabProps & { section: SiteSection }) {
  const id = useId();
  if (section.siteSpaces.length === 0) return <p className="hint">{t("sites.siteSpaces.none")}</p>;
  return (
    <>
      <p id={id} className="hint">
        {t("sites.siteSpaces.label")}
      </p>
      <ul className="site-space-list" aria-labelledby={id}>
        {section.siteSpaces.map((siteSpace) => (
          <li key={siteSpace.id}>
            <div className="row-text">
              <span>{siteSpace.title}</span>
              <ShownWhen condition={siteSpace.condition} />
            </div>
            <EditSiteSpaceCondition organizationId={organizationId} site={site} siteSpace={siteSpace} />
          </li>
        ))}
      </ul>
    </>
  );
}
