import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { language, t } from "../../i18n/index.js";

type Language = Schema<"TranslationLanguage">;

const TRANSLATIONS = "/v1/orgs/{organizationId}/translations";

/** Every language, as a record so that the compiler fails when the contract gains one this lacks. */
const LANGUAGES: Record<Language, true> = {
  en: true,
  fr: true,
  de: true,
  es: true,
  it: true,
  pt: true,
  "pt-br": true,
  ru: true,
  ja: true,
  zh: true,
  "zh-tw": true,
  yue: true,
  ko: true,
  ar: true,
  hi: true,
  nl: true,
  pl: true,
  tr: true,
  sv: true,
  no: true,
  da: true,
  fi: true,
  el: true,
  cs: true,
  hu: true,
  ro: true,
  th: true,
  vi: true,
  id: true,
  ms: true,
  he: true,
  uk: true,
  sk: true,
  bg: true,
  hr: true,
  lt: true,
  lv: true,
  et: true,
  sl: true,
};
const isLanguage = (key: string): key is Language => key in LANGUAGES;
const LANGUAGE_CODES: readonly Language[] = Object.keys(LANGUAGES).filter(isLanguage);

const names = new Intl.DisplayNames([language], { type: "language" });
/** A language's name in the reader's language (its code when the browser knows no name). */
const languageName = (code: Language) => names.of(code) ?? code;

/** The organization's translation settings: the languages its content is translated into. */
export function TranslationsSection({ organizationId }: { organizationId: string }) {
  const translations = $api.useQuery("get", TRANSLATIONS, {
    params: { path: { organizationId }, query: { limit: 100 } },
  });
  return (
    <>
      <h2>{t("settings.translations")}</h2>
      <CreateTranslation organizationId={organizationId} />
      {translations.isPending && <Loading />}
      {translations.isError && <ErrorView error={translations.error} />}
      {translations.data?.items.length === 0 && <p>{t("settings.translations.empty")}</p>}
      <ul className="settings-list">
        {translations.data?.items.map((translation) => (
          <li key={translation.id}>
            <h3>{translation.title}</h3>
            <p className="meta">
              {translation.languages.length === 0
                ? t("settings.translations.noLanguage")
                : translation.languages.map(languageName).join(", ")}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

function CreateTranslation({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [title, setTitle] = useState("");
  const [languages, setLanguages] = useState<Language[]>([]);
  const create = $api.useMutation("post", TRANSLATIONS, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["get", TRANSLATIONS] }),
  });
  return (
    <FormDialog
      label={t("settings.translations.new")}
      submitLabel={t("settings.create")}
      pending={create.isPending}
      error={create.error}
      onOpen={() => {
        create.reset();
        setTitle("");
        setLanguages([]);
      }}
      onSubmit={(close) =>
        create.mutate(
          { params: { path: { organizationId } }, body: { title: title.trim(), languages } },
          { onSuccess: close },
        )
      }
    >
      <label htmlFor={`${id}-title`}>{t("settings.translations.title")}</label>
      <input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} />
      <fieldset className="events">
        <legend>{t("settings.translations.languages")}</legend>
        <div className="events-list">
          {LANGUAGE_CODES.map((code) => (
            <label key={code} className="check">
              <input
                type="checkbox"
                checked={languages.includes(code)}
                onChange={(event) =>
                  setLanguages(
                    event.target.checked
                      ? [...languages, code]
                      : languages.filter((chosen) => chosen !== code),
                  )
                }
              />
              {languageName(code)}
            </label>
          ))}
        </div>
      </fieldset>
    </FormDialog>
  );
}
