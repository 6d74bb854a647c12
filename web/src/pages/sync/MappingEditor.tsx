import { useId, useState } from 'react';
import { useAttributeChoices, useCodesInUse, useContentLanguages } from '../../api/hooks';
import { MEDIA_PURPOSES, type ShopDefaults } from '../../api/models';
import { useAnnounce } from '../../components/Announcer';
import { FormField } from '../../components/FormField';
import { useI18n } from '../../i18n/i18n';
import { languageName } from '../../lib/content-language';
import {
  type Catalogish,
  resetMapping,
  type ShopDraft,
  type shopProblems,
  type ValuesChoice,
  withCatalogLanguages,
} from '../../lib/shop-form';
import { CodeChecklist, PriceTypeChoice } from './CodeChoice';

interface Props {
  /** The connection's catalog: its price types and feature systems are offered as choices. */
  catalogId: string;
  draft: ShopDraft;
  defaults: ShopDefaults;
  catalog: Catalogish;
  onChange: (draft: ShopDraft) => void;
  problems: ReturnType<typeof shopProblems>;
}

/**
 * Which PIM field, feature system, language and price type goes where in the shop (TargetMapping,
 * docs/shops.md "Mapping"), prefilled with the kind's defaults; "reset" brings them back.
 */
export function MappingEditor({ catalogId, draft: given, defaults, catalog, onChange, problems }: Props) {
  const { t } = useI18n();
  // The pick lists' filter texts: GetCodesInUse searches with them (debounced in useCodesInUse).
  const [priceTypeSearch, setPriceTypeSearch] = useState('');
  const [systemSearch, setSystemSearch] = useState('');
  const priceTypes = useCodesInUse(catalogId, 'priceTypes', priceTypeSearch);
  const systems = useCodesInUse(catalogId, 'featureSystems', systemSearch);
  const [attributeSearch, setAttributeSearch] = useState('');
  const attributeChoices = useAttributeChoices(attributeSearch);
  const attributeName = new Map(attributeChoices.attributes.map((a) => [a.code, a.name]));
  const announce = useAnnounce();
  const purposesHint = useId();
  const known = useContentLanguages().data?.available ?? [];
  const draft = withCatalogLanguages(given, catalog);
  const set = (patch: Partial<ShopDraft>) => onChange({ ...draft, ...patch });
  const reset = () => {
    onChange(resetMapping(draft, defaults, catalog));
    announce(t('sync.shop.resetDone', { kind: t(`sync.shop.kind.${draft.kind}`) }));
  };

  return (
    <fieldset className="plain-fieldset mapping-editor">
      <legend>{t('sync.shop.mapping')}</legend>
      <fieldset className="plain-fieldset">
        <legend>{t('sync.shop.languages')}</legend>
        <p className="muted">{t('sync.shop.localeHint')}</p>
        <div className="form-grid">
          {draft.languages.map((row, i) => (
            <FormField
              key={row.language}
              label={t('sync.shop.locale', { language: languageName(row.language, known) })}
            >
              {(p) => (
                <input
                  {...p}
                  value={row.locale}
                  maxLength={35}
                  onChange={(e) =>
                    set({
                      languages: draft.languages.map((r, j) => (j === i ? { ...r, locale: e.target.value } : r)),
                    })
                  }
                />
              )}
            </FormField>
          ))}
          <FormField label={t('sync.shop.defaultLanguage')}>
            {(p) => (
              <select {...p} value={draft.defaultLanguage} onChange={(e) => set({ defaultLanguage: e.target.value })}>
                {[...new Set([draft.defaultLanguage, ...draft.languages.map((r) => r.language)])].map((code) => (
                  <option key={code} value={code}>
                    {languageName(code, known)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
      </fieldset>
      <fieldset className="plain-fieldset">
        <legend>{t('sync.shop.prices')}</legend>
        <div className="form-grid">
          <PriceTypeChoice
            value={draft.priceType}
            known={priceTypes.codes}
            more={priceTypes}
            search={{ text: priceTypeSearch, onChange: setPriceTypeSearch }}
            onChange={(priceType) => set({ priceType })}
          />
          <FormField
            label={t('sync.shop.currency')}
            problem={problems.currency ? t(`sync.shop.problem.${problems.currency}`) : null}
          >
            {(p) => (
              <input
                {...p}
                value={draft.currency}
                maxLength={3}
                onChange={(e) => set({ currency: e.target.value.toUpperCase() })}
              />
            )}
          </FormField>
        </div>
        <label className="check-field">
          <input
            type="checkbox"
            checked={draft.pricesIncludeTax}
            onChange={(e) => set({ pricesIncludeTax: e.target.checked })}
          />
          <span>{t('sync.shop.pricesIncludeTax')}</span>
        </label>
      </fieldset>
      <fieldset className="plain-fieldset">
        <legend>{t('sync.shop.features')}</legend>
        <label className="check-field">
          <input
            type="checkbox"
            checked={draft.classification}
            onChange={(e) => set({ classification: e.target.checked })}
          />
          <span>{t('sync.shop.classification')}</span>
        </label>
        <div className="form-grid">
          <FormField label={t('sync.shop.values')}>
            {(p) => (
              <select {...p} value={draft.values} onChange={(e) => set({ values: e.target.value as ValuesChoice })}>
                {(['all', 'none', 'some'] as const).map((v) => (
                  <option key={v} value={v}>
                    {t(`sync.shop.values.${v}`)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          {draft.values === 'some' && (
            <>
              <CodeChecklist
                legend={t('sync.shop.valueCodesChoice')}
                codes={attributeChoices.codes}
                more={attributeChoices}
                search={{ text: attributeSearch, onChange: setAttributeSearch }}
                labelOf={(code) => `${attributeName.get(code) ?? code} (${code})`}
                text={draft.valueCodes}
                separator=", "
                onChange={(valueCodes) => set({ valueCodes })}
              />
              <FormField label={t('sync.shop.valueCodes')} hint={t('sync.shop.valueCodesHint')}>
                {(p) => <input {...p} value={draft.valueCodes} onChange={(e) => set({ valueCodes: e.target.value })} />}
              </FormField>
            </>
          )}
          <CodeChecklist
            legend={t('sync.shop.featureBlocksChoice')}
            codes={systems.codes}
            more={systems}
            search={{ text: systemSearch, onChange: setSystemSearch }}
            text={draft.featureBlocks}
            separator={'\n'}
            onChange={(featureBlocks) => set({ featureBlocks })}
          />
          <FormField label={t('sync.shop.featureBlocks')} hint={t('sync.shop.featureBlocksHint')}>
            {(p) => (
              <textarea
                {...p}
                rows={3}
                value={draft.featureBlocks}
                onChange={(e) => set({ featureBlocks: e.target.value })}
              />
            )}
          </FormField>
        </div>
      </fieldset>
      <fieldset className="plain-fieldset">
        <legend>{t('sync.shop.more')}</legend>
        <FormField label={t('sync.shop.onDeactivate')}>
          {(p) => (
            <select
              {...p}
              value={draft.onDeactivate}
              onChange={(e) => set({ onDeactivate: e.target.value as ShopDraft['onDeactivate'] })}
            >
              <option value="disable">{t('sync.shop.onDeactivate.disable')}</option>
              <option value="delete">{t('sync.shop.onDeactivate.delete')}</option>
            </select>
          )}
        </FormField>
        <fieldset className="plain-fieldset" aria-describedby={purposesHint}>
          <legend>{t('sync.shop.imagePurposes')}</legend>
          <small id={purposesHint} className="muted">
            {t('sync.shop.imagePurposesHint')}
          </small>
          <div className="toolbar">
            {MEDIA_PURPOSES.map((purpose) => (
              <label key={purpose} className="check-field">
                <input
                  type="checkbox"
                  checked={draft.imagePurposes.includes(purpose)}
                  onChange={(e) =>
                    set({
                      imagePurposes: e.target.checked
                        ? [...draft.imagePurposes, purpose]
                        : draft.imagePurposes.filter((x) => x !== purpose),
                    })
                  }
                />
                <span>{t(`media.purpose.${purpose}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="check-field">
          <input type="checkbox" checked={draft.references} onChange={(e) => set({ references: e.target.checked })} />
          <span>{t('sync.shop.references')}</span>
        </label>
      </fieldset>
      <div>
        <button type="button" onClick={reset}>
          {t('sync.shop.reset')}
        </button>
      </div>
    </fieldset>
  );
}
