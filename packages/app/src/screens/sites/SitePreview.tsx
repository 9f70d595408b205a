import { useId } from "react";
import { t } from "../../i18n/index.js";
import { AA_CONTRAST, type CustomizationForm, contrastRatio, textColorOn } from "./customization.js";

interface Props {
  form: CustomizationForm;
  siteTitle: string;
  publishedUrl: string | undefined;
}

/**
 * A sketch of the published site's header and a page, drawn from the form as typed (before saving):
 * colours through React's `style` prop, which the app's policy allows. The published site itself
 * cannot be shown in a frame: its pages refuse every frame (`frame-ancestors 'none'`).
 */
export function SitePreview({ form, siteTitle, publishedUrl }: Props) {
  const id = useId();
  const color = form.primaryColor;
  const onColor = textColorOn(color);
  const whiteContrast = contrastRatio(color, "#ffffff");
  // Bold themes paint the header in the primary colour; the others keep it light with a coloured edge.
  const paintedHeader = form.theme === "bold" || form.theme === "gradient";
  const headerStyle = paintedHeader
    ? form.theme === "gradient"
      ? { background: `linear-gradient(90deg, ${color}, ${color}d9)`, color: onColor }
      : { background: color, color: onColor }
    : { borderBottomColor: color };
  const links = form.headerLinks.filter((link) => link.title.trim());
  return (
    <section className="site-preview-panel" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t("sites.preview.title")}</h3>
      <div className="site-preview" data-theme={form.theme}>
        <div className="site-preview-header" style={headerStyle}>
          <p className="site-preview-title">{form.title.trim() || siteTitle}</p>
          {links.length > 0 && (
            <ul className="site-preview-links">
              {links.map((link, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the form's links have no id
                <li key={index}>{link.title}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="site-preview-page">
          <p className="site-preview-heading">{t("sites.preview.sampleHeading")}</p>
          <p>
            {t("sites.preview.sampleText")}{" "}
            <span className="site-preview-link" style={{ textDecorationColor: color }}>
              {t("sites.preview.sampleLink")}
            </span>
          </p>
          <span className="site-preview-button" style={{ backgroundColor: color, color: onColor }}>
            {t("sites.preview.sampleButton")}
          </span>
          {form.copyright.trim() && <p className="site-preview-footer">{form.copyright.trim()}</p>}
        </div>
      </div>
      <p className="hint">
        {whiteContrast >= AA_CONTRAST
          ? t("sites.preview.contrastGood", { ratio: whiteContrast.toFixed(1) })
          : t("sites.preview.contrastLow", { ratio: whiteContrast.toFixed(1) })}
      </p>
      <p className="hint">
        {t("sites.preview.note")}{" "}
        {publishedUrl && (
          <a href={publishedUrl} target="_blank" rel="noreferrer">
            {t("sites.preview.open")}
          </a>
        )}
      </p>
    </section>
  );
}
