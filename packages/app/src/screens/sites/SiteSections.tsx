import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { useSpaces } from "../../api/pages.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { type SiteSection, type SiteTabProps, useRefreshSites, useSections } from "./queries.js";

const SECTION = "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}";

/** The site's sections in order, each with its spaces: add, move up or down, remove. */
export function SiteSections({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const sections = useSections(organizationId, site.id);
  const refresh = useRefreshSites();
  const move = $api.useMutation("post", `${SECTION}/move`, { onSettled: refresh });
  const remove = $api.useMutation("delete", SECTION, { onSettled: refresh });
  const at = (section: SiteSection) => ({
    params: { path: { organizationId, siteId: site.id, siteSectionId: section.id } },
  });
  const pointer = (section: SiteSection) => ({ type: "site-section" as const, siteSection: section.id });
  const busy = move.isPending || remove.isPending;

  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="sites-heading">
        <h2 id={`${id}-heading`}>{t("sites.tab.sections")}</h2>
        <AddSection organizationId={organizationId} site={site} />
      </div>
      {sections.isPending && <Loading />}
      {sections.isError && <ErrorView error={sections.error} />}
      {sections.data?.length === 0 && <p>{t("sites.sections.empty")}</p>}
      {move.error != null && <ErrorView error={move.error} />}
      {remove.error != null && <ErrorView error={remove.error} />}
      {sections.data && sections.data.length > 0 && (
        <ol className="section-list">
          {sections.data.map((section, index, all) => {
            const previous = all[index - 1];
            const next = all[index + 1];
            return (
              <li key={section.id}>
                <div className="section-text">
                  <h3>{section.title}</h3>
                  <p className="hint">
                    {t("sites.sections.spaces", {
                      spaces: section.siteSpaces.map((siteSpace) => siteSpace.space.title).join(", ") || "—",
                    })}
                  </p>
                </div>
                <div className="row-actions">
                  <button
                    type="button"
                    disabled={!previous || busy}
                    aria-label={t("sites.sections.moveUpNamed", { title: section.title })}
                    onClick={() =>
                      previous &&
                      move.mutate({ ...at(section), body: { position: { before: pointer(previous) } } })
                    }
                  >
                    {t("sites.sections.moveUp")}
                  </button>
                  <button
                    type="button"
                    disabled={!next || busy}
                    aria-label={t("sites.sections.moveDownNamed", { title: section.title })}
                    onClick={() =>
                      next && move.mutate({ ...at(section), body: { position: { after: pointer(next) } } })
                    }
                  >
                    {t("sites.sections.moveDown")}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={t("sites.sections.removeNamed", { title: section.title })}
                    onClick={() => remove.mutate(at(section))}
                  >
                    {t("sites.sections.remove")}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** "Add section": a space of the organization, and the section's title (the space's when left empty). */
function AddSection({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const spaces = useSpaces(organizationId);
  const refresh = useRefreshSites();
  const [spaceId, setSpaceId] = useState("");
  const [title, setTitle] = useState("");
  const [noSpace, setNoSpace] = useState(false);
  const add = $api.useMutation("post", "/v1/orgs/{organizationId}/sites/{siteId}/sections", {
    onSuccess: refresh,
  });
  return (
    <FormDialog
      label={t("sites.sections.add")}
      submitLabel={t("sites.sections.addSubmit")}
      pending={add.isPending}
      error={add.error}
      onOpen={() => {
        add.reset();
        setSpaceId("");
        setTitle("");
        setNoSpace(false);
      }}
      onSubmit={(close) => {
        setNoSpace(spaceId === "");
        if (spaceId === "") return;
        const trimmed = title.trim();
        add.mutate(
          {
            params: { path: { organizationId, siteId: site.id } },
            body: { spaceId, title: trimmed === "" ? null : trimmed },
          },
          { onSuccess: close },
        );
      }}
    >
      <label htmlFor={`${id}-space`}>{t("sites.space")}</label>
      <select
        id={`${id}-space`}
        value={spaceId}
        onChange={(event) => setSpaceId(event.target.value)}
        aria-invalid={noSpace}
        aria-describedby={noSpace ? `${id}-none` : undefined}
      >
        <option value="">{t("sites.sections.chooseSpace")}</option>
        {spaces.data?.map((space) => (
          <option key={space.id} value={space.id}>
            {space.title}
          </option>
        ))}
      </select>
      {noSpace && (
        <p id={`${id}-none`} className="error" role="alert">
          {t("sites.sections.noSpace")}
        </p>
      )}
      <label htmlFor={`${id}-title`}>{t("sites.sections.sectionTitle")}</label>
      <input
        id={`${id}-title`}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        aria-describedby={`${id}-title-hint`}
      />
      <p id={`${id}-title-hint`} className="hint">
        {t("sites.sections.titleHint")}
      </p>
    </FormDialog>
  );
}
