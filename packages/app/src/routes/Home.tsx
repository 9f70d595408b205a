import { t } from "../i18n/index.js";
import { useShell } from "../layout/shell-context.js";

/** An organization's home: its title, and where to go from here. */
export default function Home() {
  const { organization } = useShell();
  return (
    <>
      <h1>{organization.title}</h1>
      <p>{t("home.intro")}</p>
    </>
  );
}
