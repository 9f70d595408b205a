import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { useSpaces } from "../../api/pages.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import {
  type SiteSection,
  type SiteSectionGroup,
  type SiteTabProps,
  useRefreshSites,
  useSectionGroups,
  useSections,
} from "./queries.js";
import { EditSection, ShownWhen, SiteSpaceList } from "./SectionConditions.js";
import { AddGroup, GroupActions, GroupSelect, useRegroup } from "./SiteSectionGroups.js";

const SECTION = "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}";

/** The site's sections in order, each with its spaces, and its section groups with theirs. */
export function SiteSections({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const sections = useSections(organizationId, site.id);
  const groups = useSectionGroups(organizationId, site.id);
  const tab = { organizationId, site };
  const allGroups = groups.data ?? [];
  const ungrouped = sections.data?.filter((section) => section.sectionGroup === undefined) ?? [];

  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="sites-heading">
        <h2 id={`${id}-heading`}>{t("sites.tab.sections")}</h2>
        <div className="row-actions">
          <AddSection {...tab} />
          <AddGroup {...tab} />
        </div>
      </div>
      {(sections.isPending || groups.isPending) && <Loading />}
      {sections.isError && <ErrorView error={sections.error} />}
      {groups.isError && <ErrorView error={groups.error} />}
      {sections.data?.length === 0 && allGroups.length === 0 && <p>{t("sites.sections.empty")}</p>}
      {ungrouped.length > 0 && <SectionList {...tab} sections={ungrouped} groups={allGroups} level={3} />}
      {allGroups.length > 0 && (
        <ul className="section-groups">
          {allGroups.map((group) => (
            <li key={group.id}>
              <div className="sites-heading">
                <h3>{t("sites.groups.heading", { title: group.title })}</h3>
                <GroupActions {...tab} group={group} />
              </div>
              {group.sections.length === 0 ? (
                <p className="hint">{t("sites.groups.empty")}</p>
              ) : (
                <SectionList {...tab} sections={group.sections} groups={allGroups} level={4} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface SectionListProps extends SiteTabProps {
  /** The sections of one level (the site's top level, or a group), in order. */
  sections: SiteSection[];
  groups: SiteSectionGroup[];
  /** The heading level of a section's title: 4 under a group's heading. */
  level: 3 | 4;
}

/**
 * Sections in order: each is edited (title, path, who sees it), moves up or down among its neighbours,
 * into another group, or away; each of its site spaces gets its own condition.
 */
function SectionList({ organizationId, site, sections, groups, level }: SectionListProps) {
  const refresh = useRefreshSites();
  const move = $api.useMutation("post", `${SECTION}/move`, { onSettled: refresh });
  const remove = $api.useMutation("delete", SECTION, { onSettled: refresh });
  const regroup = useRegroup({ organizationId, site });
  const at = (section: SiteSection) => ({
    params: { path: { organizationId, siteId: site.id, siteSectionId: section.id } },
  });
  const pointer = (section: SiteSection) => ({ type: "site-section" as const, siteSection: section.id });
  const busy = move.isPending || remove.isPending || regroup.isPending;
  const Title = level === 3 ? "h3" : "h4";

  return (
    <>
      {move.error != null && <ErrorView error={move.error} />}
      {remove.error != null && <ErrorView error={remove.error} />}
      {regroup.error != null && <ErrorView error={regroup.error} />}
      <ol className="section-list">
        {sections.map((section, index, all) => {
          const previous = all[index - 1];
          const next = all[index + 1];
          return (
            <li key={section.id}>
              <div className="section-text">
                <Title>{section.title}</Title>
                <ShownWhen condition={section.condition} />
                <SiteSpaceList organizationId={organizationId} site={site} section={section} />
              </div>
              <div className="row-actions">
                {groups.length > 0 && (
                  <GroupSelect
                    section={section}
                    groups={groups}
                    disabled={busy}
                    onChange={(to) => regroup.mutate({ section, to })}
                  />
                )}
                <EditSection organizationId={organizationId} site={site} section={section} />
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
    </>
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
