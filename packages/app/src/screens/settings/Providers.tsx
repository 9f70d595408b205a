import { type ReactNode, useId } from "react";
import { ConfirmDialog } from "../../components/ConfirmDialog.js";
import { DraftDialog } from "../../components/DraftDialog.js";
import { ItemList, type ItemsQuery } from "../../components/ItemList.js";
import type { Write } from "../../components/MutationDialog.js";
import { type MessageKey, t } from "../../i18n/index.js";

/** One kind of single sign-on provider (SAML, OpenID Connect): its strings, its draft and its writes. */
export interface ProviderKind<Provider, Draft, Created, Updated, Removed> {
  heading: MessageKey;
  newLabel: MessageKey;
  empty: MessageKey;
  editHeading: MessageKey;
  emptyDraft: Draft;
  draftOf(provider: Provider): Draft;
  keep?(draft: Draft): Draft;
  fields(draft: Draft, onChange: (draft: Draft) => void): ReactNode;
  /** What the provider's item shows below its label. */
  details(provider: Provider): ReactNode;
  create: Write<Created, unknown>;
  created(draft: Draft): Created;
  update: Write<Updated, unknown>;
  updated(provider: Provider, draft: Draft): Updated;
  remove: Write<Removed, unknown>;
  removed(provider: Provider): Removed;
}

/**
 * The organization's providers of one kind: to add, edit or delete. Every item's dialogs share the
 * kind's writes: the dialogs are modal, so one at a time uses them (and resets them as it opens).
 */
export function Providers<Provider extends { id: string; label: string }, Draft, Created, Updated, Removed>({
  query,
  kind,
}: {
  query: ItemsQuery<Provider>;
  kind: ProviderKind<Provider, Draft, Created, Updated, Removed>;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{t(kind.heading)}</h3>
      <DraftDialog
        label={t(kind.newLabel)}
        submitLabel={t("settings.create")}
        write={kind.create}
        initial={() => kind.emptyDraft}
        keep={kind.keep}
        fields={kind.fields}
        variables={kind.created}
      />
      <ItemList
        className="settings-list"
        query={query}
        empty={t(kind.empty)}
        item={(provider) => (
          <li key={provider.id}>
            <h4>{provider.label}</h4>
            {kind.details(provider)}
            <div className="item-actions">
              <DraftDialog
                label={t("settings.edit")}
                context={provider.label}
                heading={t(kind.editHeading)}
                submitLabel={t("settings.save")}
                write={kind.update}
                initial={() => kind.draftOf(provider)}
                keep={kind.keep}
                fields={kind.fields}
                variables={(draft) => kind.updated(provider, draft)}
              />
              <ConfirmDialog
                label={t("settings.delete")}
                context={provider.label}
                heading={t("settings.sso.deleteHeading")}
                warning={t("settings.sso.deleteWarning", { label: provider.label })}
                write={kind.remove}
                variables={() => kind.removed(provider)}
              />
            </div>
          </li>
        )}
      />
    </section>
  );
}
