import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { SaveActions } from "../../components/SaveActions.js";
import { t } from "../../i18n/index.js";
import { parseSchema } from "./adaptive.js";
import { ADAPTIVE_SCHEMA, type SiteTabProps, useAdaptiveSchema, useRefreshSites } from "./queries.js";

/** The JSON Schema of the site's visitor attributes (adaptive content), edited as text, checked as typed. */
export function AdaptiveSchema({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const schema = useAdaptiveSchema(organizationId, site.id);
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("sites.tab.adaptive")}</h2>
      <p className="hint">{t("sites.adaptive.help")}</p>
      {schema.isPending && <Loading />}
      {schema.isError && <ErrorView error={schema.error} />}
      {schema.data && (
        <SchemaEditor
          key={schema.data.updatedAt}
          organizationId={organizationId}
          site={site}
          text={JSON.stringify(schema.data.jsonSchema, null, 2)}
        />
      )}
    </section>
  );
}

function SchemaEditor({ organizationId, site, text }: SiteTabProps & { text: string }) {
  const id = useId();
  const refresh = useRefreshSites();
  const [draft, setDraft] = useState(text);
  const save = $api.useMutation("put", ADAPTIVE_SCHEMA, { onSuccess: refresh });
  const parsed = parseSchema(draft);
  const problems = "problems" in parsed ? parsed.problems : [];
  return (
    <form
      className="adaptive-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if ("schema" in parsed)
          save.mutate({
            params: { path: { organizationId, siteId: site.id } },
            body: { jsonSchema: parsed.schema },
          });
      }}
    >
      <label htmlFor={`${id}-schema`}>{t("sites.adaptive.label")}</label>
      <textarea
        id={`${id}-schema`}
        value={draft}
        rows={14}
        spellCheck={false}
        onChange={(event) => {
          save.reset();
          setDraft(event.target.value);
        }}
        aria-invalid={problems.length > 0}
        aria-describedby={`${id}-problems`}
      />
      <div id={`${id}-problems`} aria-live="polite">
        {problems.length > 0 && (
          <ul className="error">
            {problems.map((problem) => (
              <li key={`${problem.at} ${problem.key}`}>{t(problem.key, { at: problem.at })}</li>
            ))}
          </ul>
        )}
      </div>
      {save.error != null && <ErrorView error={save.error} />}
      <SaveActions
        label={t("sites.adaptive.save")}
        saved={t("sites.adaptive.saved")}
        save={save}
        blocked={problems.length > 0}
        statusClass="hint"
      />
    </form>
  );
}
