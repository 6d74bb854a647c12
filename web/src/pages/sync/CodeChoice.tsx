import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { FILTER_CODES_FROM, filterCodes, list, searchedCodes, toggleCode } from '../../lib/shop-form';

/** The select's value that asks for a price type typed by hand. */
const OTHER = '\u0000other';

/** A list's next page of codes (GetCodesInUse pages): offered while there is one. */
export interface MoreCodes {
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/** A filter the server answers (GetCodesInUse `q`): the text as typed, held by the list's owner. */
export interface CodeSearch {
  text: string;
  onChange: (text: string) => void;
}

/** "Load more" under a pick list while its source has another page. */
function LoadMore({ more, label }: { more?: MoreCodes; label: string }) {
  const { t } = useI18n();
  if (!more?.hasMore) return null;
  return (
    <div>
      <button type="button" onClick={more.loadMore} disabled={more.loadingMore}>
        {more.loadingMore ? t('common.loading') : label}
      </button>
    </div>
  );
}

/**
 * The price type sent as the shop's price: the product's own price, one of the types the
 * catalog's prices use (GetCodesInUse, page after page on request), or another typed by hand (a
 * type the catalog does not use yet is allowed: the mapping takes any). A long list (or one
 * with another page) gets a filter the server answers (`search`): the select then offers the
 * types found, and the chosen one.
 */
export function PriceTypeChoice({
  value,
  known: found,
  more,
  search,
  onChange,
}: {
  value: string;
  known: readonly string[];
  more?: MoreCodes;
  search?: CodeSearch;
  onChange: (value: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const searchText = search?.text ?? '';
  const offerSearch = search && (found.length >= FILTER_CODES_FROM || more?.hasMore || searchText !== '');
  // Chosen "another": stays until a listed choice is made, so typing a listed code keeps the focus.
  const [typing, setTyping] = useState(false);
  // A stored type the catalog does not use (or before the list arrives) shows as typed; while a
  // search narrows the list, the chosen type stays offered (first) instead.
  const other = typing || (value !== '' && !found.includes(value) && searchText === '');
  const known = filterCodes(searchedCodes(found, searchText, value ? [value] : []), searchText, new Set([value]));
  return (
    <div className="field">
      {offerSearch && (
        <>
          <label htmlFor={`${id}-filter`}>{t('sync.shop.filterPriceTypes')}</label>
          <input
            id={`${id}-filter`}
            type="search"
            value={searchText}
            maxLength={100}
            onChange={(e) => search.onChange(e.target.value)}
          />
        </>
      )}
      <label htmlFor={`${id}-select`}>{t('sync.shop.priceType')}</label>
      <select
        id={`${id}-select`}
        aria-describedby={`${id}-hint`}
        value={other ? OTHER : value}
        onChange={(e) => {
          const chosen = e.target.value;
          setTyping(chosen === OTHER);
          if (chosen !== OTHER) onChange(chosen);
        }}
      >
        <option value="">{t('sync.shop.priceType.own')}</option>
        {known.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
        <option value={OTHER}>{t('sync.shop.priceType.other')}</option>
      </select>
      {other && (
        <>
          <label htmlFor={`${id}-other`}>{t('sync.shop.priceType.typed')}</label>
          <input id={`${id}-other`} value={value} maxLength={30} onChange={(e) => onChange(e.target.value)} />
        </>
      )}
      <small id={`${id}-hint`} className="muted">
        {t('sync.shop.priceTypeHint')}
      </small>
      <LoadMore more={more} label={t('sync.shop.morePriceTypes')} />
    </div>
  );
}

/**
 * Tick boxes for the codes the company or catalog has (feature systems, attribute codes) on a
 * free-text list of them: a tick adds or removes the code in the text, which stays editable
 * for codes not offered. A long list gets a filter (the ticked codes always show), and a list
 * with another page a "load more". With `search` the filter is the server's (GetCodesInUse `q`,
 * held by the owner, which passes the codes found); without, it filters the codes given.
 */
export function CodeChecklist({
  legend,
  codes,
  text,
  separator,
  onChange,
  labelOf = (code) => code,
  more,
  search,
}: {
  legend: string;
  codes: readonly string[];
  text: string;
  separator: '\n' | ', ';
  onChange: (text: string) => void;
  labelOf?: (code: string) => string;
  more?: MoreCodes;
  search?: CodeSearch;
}) {
  const { t } = useI18n();
  const id = useId();
  const [localFilter, setLocalFilter] = useState('');
  const filter = search?.text ?? localFilter;
  const setFilter = search?.onChange ?? setLocalFilter;
  if (codes.length === 0 && filter === '') return null;
  const ticked = list(text);
  const chosen = new Set(ticked);
  // The server's answer may lag the text by a rest and a request: filtering it here as well
  // keeps what shows in step with what is typed.
  const shown = filterCodes(search ? searchedCodes(codes, filter, ticked) : codes, filter, chosen, labelOf);
  return (
    <fieldset className="plain-fieldset span-2 code-checklist">
      <legend>{legend}</legend>
      {(codes.length >= FILTER_CODES_FROM || more?.hasMore || filter !== '') && (
        <div className="field">
          <label htmlFor={`${id}-filter`}>{t('sync.shop.filterCodes')}</label>
          <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </div>
      )}
      {shown.length === 0 && <p className="muted">{t('sync.shop.noCodeMatches')}</p>}
      <div className="toolbar">
        {shown.map((code) => (
          <label key={code} className="check-field">
            <input
              type="checkbox"
              checked={chosen.has(code)}
              onChange={(e) => onChange(toggleCode(text, code, e.target.checked, separator))}
            />
            <span>{labelOf(code)}</span>
          </label>
        ))}
      </div>
      <LoadMore more={more} label={t('sync.shop.moreCodes')} />
    </fieldset>
  );
}
