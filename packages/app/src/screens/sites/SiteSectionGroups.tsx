import { unwrap } from "@quire/client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api, fetchClient } from "../../api/client.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { type SiteSection, type SiteSectionGroup, type SiteTabProps, useRefreshSites } from "./queries.js";

const GROUPS = "/v1/orgs/{organizationId}/sites/{siteId}/section-groups";
const GROUP = "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}";

/** The title field of the Add group and Rename dialogs. */
function GroupTitleField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{t("sites.groups.groupTitle")}</label>
      <input id={id} value={value} onChange={(event) => onChange(event.target.value)} />
    </>
  );
}

/** "Add group": a new, empty section group at the end of the site. */
export function AddGroup({ organizationId, site }: SiteTabProps) {
  const refresh = useRefreshSites();
  const [title, setTitle] = useState("");
  const add = $api.useMutation("post", GROUPS, { onSuccess: refresh });
  return (
    <FormDialog
      label={t("sites.groups.add")}
      submitLabel={t("sites.groups.addSubmit")}
      pending={add.isPending}
      error={add.error}
      onOpen={() => {
        add.reset();
        setTitle("");
      }}
      onSubmit={(close) =>
        add.mutate(
          { params: { path: { organizationId, siteId: site.id } }, body: { title: title.trim() } },
          { onSuccess: close },
        )
      }
    >
      <GroupTitleField value={title} onChange={setTitle} />
    </FormDialog>
  );
}

interface GroupProps extends SiteTabProps {
  group: SiteSectionGroup;
}

/** Rename and Delete group, for one group. */
export function GroupActions({ organizationId, site, group }: GroupProps) {
  const refresh = useRefreshSites();
  const [title, setTitle] = useState("");
  const at = { params: { path: { organizationId, siteId: site.id, siteSectionGroupId: group.id } } };
  const rename = $api.useMutation("patch", GROUP, { onSuccess: refresh });
  const remove = $api.useMutation("delete", GROUP, { onSuccess: refresh });
  return (
    <div className="row-actions">
      <FormDialog
        label={t("sites.groups.rename")}
        context={group.title}
        heading={t("sites.groups.renameHeading", { title: group.title })}
        submitLabel={t("sites.groups.renameSubmit")}
        pending={rename.isPending}
        error={rename.error}
        onOpen={() => {
          rename.reset();
          setTitle(group.title);
        }}
        onSubmit={(close) => rename.mutate({ ...at, body: { title: title.trim() } }, { onSuccess: close })}
      >
        <GroupTitleField value={title} onChange={setTitle} />
      </FormDialog>
      <FormDialog
        label={t("sites.groups.delete")}
        context={group.title}
        submitLabel={t("sites.groups.deleteSubmit")}
        danger
        pending={remove.isPending}
        error={remove.error}
        onOpen={() => remove.reset()}
        onSubmit={(close) => remove.mutate(at, { onSuccess: close })}
      >
        <p>{t("sites.groups.deleteWarning", { title: group.title })}</p>
      </FormDialog>
    </div>
  );
}

interface Regroup {
  section: SiteSection;
  /** The group to put the section in, or null for none. */
  to: string | null;
}

/**
 * Moves sections in and out of groups. The contract adds a section only to a group when it is in none
 * (409 otherwise), so a move between groups first takes it out of its own.
 */
export function useRegroup({ organizationId, site }: SiteTabProps) {
  const refresh = useRefreshSites();
  return useMutation({
    mutationFn: async ({ section, to }: Regroup) => {
      const siteId = site.id;
      if (section.sectionGroup !== undefined)
        await unwrap(
          fetchClient.DELETE(`${GROUP}/sections/{siteSectionId}`, {
            params: {
              path: {
                organizationId,
                siteId,
                siteSectionGroupId: section.sectionGroup,
                siteSectionId: section.id,
              },
            },
          }),
        );
      if (to !== null)
        await unwrap(
          fetchClient.POST(`${GROUP}/sections`, {
            params: { path: { organizationId, siteId, siteSectionGroupId: to } },
            body: { sectionId: section.id },
          }),
        );
    },
    onSettled: refresh,
  });
}

interface GroupSelectProps {
  section: SiteSection;
  groups: SiteSectionGroup[];
  disabled: boolean;
  onChange(to: string | null): void;
}

/** "Group of <section>": None or one of the site's groups; shows the group the server has. */
export function GroupSelect({ section, groups, disabled, onChange }: GroupSelectProps) {
  const id = useId();
  return (
    <span className="section-group-select">
      <label htmlFor={id}>
        {t("sites.groups.group")}
        <span className="visually-hidden"> {t("sites.groups.ofSection", { title: section.title })}</span>
      </label>
      <select
        id={id}
        value={section.sectionGroup ?? ""}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value === "" ? null : event.target.value)}
      >
        <option value="">{t("sites.groups.none")}</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.title}
          </option>
        ))}
      </select>
    </span>
  );
}
