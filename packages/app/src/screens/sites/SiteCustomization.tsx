import { useEffect, useId, useState } from "react";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { SaveActions } from "../../components/SaveActions.js";
import { t } from "../../i18n/index.js";
import {
  type CustomizationForm,
  formFromSettings,
  formProblems,
  inputFromForm,
  type LinkFields,
  THEMES,
} from "./customization.js";
import { type Customization, type SiteTabProps, useCustomization, useSaveCustomization } from "./queries.js";
import { SitePreview } from "./SitePreview.js";

/** The site's customization: a form beside a preview that follows every keystroke, saved on Save. */
export function SiteCustomization({ organizationId, site }: SiteTabProps) {
  const customization = useCustomization(organizationId, site.id);
  const save = useSaveCustomization();
  const etag = customization.data?.etag;
  // A refused save's error goes once a new read (Reload) replaces the form; "Saved." stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new tag is what clears it
  useEffect(() => {
    if (save.isError) save.reset();
  }, [etag]);
  if (customization.isPending) return <Loading />;
  if (customization.isError) return <ErrorView error={customization.error} />;
  // A new read (after Save or Reload) starts the form again from what the server has.
  return (
    <CustomizationEditor
      key={customization.data.etag ?? customization.dataUpdatedAt}
      organizationId={organizationId}
      site={site}
      settings={customization.data.settings}
      etag={customization.data.etag}
      save={save}
    />
  );
}

interface EditorProps extends SiteTabProps {
  settings: Customization;
  etag: string | undefined;
  /** Lives above the editor, which a new read replaces: "Saved" outlives the save's own read. */
  save: ReturnType<typeof useSaveCustomization>;
}

function CustomizationEditor({ organizationId, site, settings, etag, save }: EditorProps) {
  const id = useId();
  const [form, setForm] = useState(() => formFromSettings(settings));
  const [tried, setTried] = useState(false);
  const problems = formProblems(form);
  const set = (change: Partial<CustomizationForm>) => {
    save.reset();
    setForm((current) => ({ ...current, ...change }));
  };
  const setLink = (index: number, change: Partial<LinkFields>) =>
    set({ headerLinks: form.headerLinks.map((link, i) => (i === index ? { ...link, ...change } : link)) });
  const field = (name: string) => {
    const problem = tried ? problems[name] : undefined;
    return {
      id: `${id}-${name}`,
      "aria-invalid": problem !== undefined,
      "aria-describedby": problem ? `${id}-${name}-problem` : undefined,
    };
  };
  const problem = (name: string) => {
    const key = tried ? problems[name] : undefined;
    return (
      key && (
        <p id={`${id}-${name}-problem`} className="error" role="alert">
          {t(key)}
        </p>
      )
    );
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("sites.tab.customization")}</h2>
      <div className="customize">
        <form
          className="customize-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setTried(true);
            if (Object.keys(problems).length > 0) return;
            save.mutate({
              params: { path: { organizationId, siteId: site.id } },
              body: inputFromForm(settings, form),
              ...(etag && { headers: { "If-Match": etag } }),
            });
          }}
        >
          <label htmlFor={`${id}-title`}>{t("sites.customize.title")}</label>
          <input
            {...field("title")}
            value={form.title}
            placeholder={site.title}
            onChange={(event) => set({ title: event.target.value })}
          />
          {problem("title")}
          <label htmlFor={`${id}-primaryColor`}>{t("sites.customize.primaryColor")}</label>
          <input
            {...field("primaryColor")}
            type="color"
            value={form.primaryColor}
            onChange={(event) => set({ primaryColor: event.target.value })}
          />
          {problem("primaryColor")}
          <label htmlFor={`${id}-theme`}>{t("sites.customize.theme")}</label>
          <select
            id={`${id}-theme`}
            value={form.theme}
            onChange={(event) =>
              set({ theme: THEMES.find((theme) => theme === event.target.value) ?? form.theme })
            }
          >
            {THEMES.map((theme) => (
              <option key={theme} value={theme}>
                {t(`sites.customize.theme.${theme}`)}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-logoUrl`}>{t("sites.customize.logoUrl")}</label>
          <input
            {...field("logoUrl")}
            type="url"
            value={form.logoUrl}
            onChange={(event) => set({ logoUrl: event.target.value })}
          />
          {problem("logoUrl")}
          <fieldset>
            <legend>{t("sites.customize.headerLinks")}</legend>
            {form.headerLinks.length === 0 && <p className="hint">{t("sites.customize.noLinks")}</p>}
            {form.headerLinks.map((link, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: links have no id; their place is who they are
              <div className="link-fields" key={index}>
                <label htmlFor={`${id}-headerLinks.${index}.title`}>
                  {t("sites.customize.linkTitle", { n: index + 1 })}
                </label>
                <input
                  {...field(`headerLinks.${index}.title`)}
                  value={link.title}
                  onChange={(event) => setLink(index, { title: event.target.value })}
                />
                {problem(`headerLinks.${index}.title`)}
                <label htmlFor={`${id}-headerLinks.${index}.url`}>
                  {t("sites.customize.linkUrl", { n: index + 1 })}
                </label>
                <input
                  {...field(`headerLinks.${index}.url`)}
                  type="url"
                  value={link.url}
                  onChange={(event) => setLink(index, { url: event.target.value })}
                />
                {problem(`headerLinks.${index}.url`)}
                <button
                  type="button"
                  onClick={() => set({ headerLinks: form.headerLinks.filter((_, i) => i !== index) })}
                >
                  {t("sites.customize.removeLink", { n: index + 1 })}
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() => set({ headerLinks: [...form.headerLinks, { title: "", url: "" }] })}
            >
              {t("sites.customize.addLink")}
            </button>
          </fieldset>
          <label htmlFor={`${id}-copyright`}>{t("sites.customize.copyright")}</label>
          <input
            {...field("copyright")}
            value={form.copyright}
            onChange={(event) => set({ copyright: event.target.value })}
          />
          {problem("copyright")}
          {save.error != null && <ErrorView error={save.error} />}
          <SaveActions
            label={t("sites.customize.save")}
            saved={t("sites.customize.saved")}
            save={save}
            statusClass="hint"
          />
        </form>
        <SitePreview
          form={form}
          siteTitle={site.title}
          publishedUrl={site.published ? site.urls.published : undefined}
        />
      </div>
    </section>
  );
}
