import { type ReactNode, useState } from "react";
import { t } from "../../i18n/index.js";

/** Copies `value` to the clipboard, saying whether it did. `label` names what it copies, for its button. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [said, setSaid] = useState("");
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setSaid(t("account.copied")),
      () => setSaid(t("account.copyFailed")),
    );
  return (
    <span className="account-copy">
      <button type="button" onClick={copy} aria-label={`${t("account.copy")}: ${label}`}>
        {t("account.copy")}
      </button>
      <span role="status">{said}</span>
    </span>
  );
}

/** A secret the server shows only once (`label`: what it is), with a way to copy it. */
export function OneTimeSecret({ label, value }: { label: string; value: string }) {
  return (
    <div className="account-secret">
      <span className="account-secret-label">{label}</span>
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </div>
  );
}

/** Recovery codes, just made: shown once, copied all at once. */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  return (
    <div className="account-codes">
      <ul aria-label={t("account.factors.codes")}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>{t("account.shownOnce")}</p>
      <CopyButton value={codes.join("\n")} label={t("account.factors.codes")} />
    </div>
  );
}

/** What a dialog shows once its write made something shown only this once, closed with Done. */
export function ShownOnce({ onClose, children }: { onClose(): void; children: ReactNode }) {
  return (
    <>
      {children}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t("account.done")}
        </button>
      </div>
    </>
  );
}
