import { type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCatalogs, useProduct } from '../api/hooks';
import { useDeleteProduct } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ContentLanguageSwitch } from '../components/ContentLanguageSwitch';
import { QueryState } from '../components/QueryState';
import { Tabs } from '../components/Tabs';
import { useI18n } from '../i18n/i18n';
import { contentLanguageOf } from '../lib/content-language';
import { useMay, useSession } from '../session/session';
import { AttributesForm } from './AttributesForm';
import { ClassificationEditor } from './ClassificationEditor';
import { CompletenessPanel } from './CompletenessPanel';
import { ReviewPanel } from './ReviewPanel';
import { FieldsForm } from './FieldsForm';
import { FeatureBlocksPanel } from './FeatureBlocksPanel';
import { HistoryPanel } from './HistoryPanel';
import { LinksPanel } from './LinksPanel';
import { MediaPanel } from './MediaPanel';
import { PlacementsForm } from './PlacementsForm';
import { PricesPanel } from './PricesPanel';
import { ReferencesPanel } from './ReferencesPanel';
import { TranslationForm } from './TranslationForm';
import { VariantsPanel } from './VariantsPanel';

/**
 * Everything about one product: fields, attributes, categories, variants, media, classification.
 * `?language=` (the content language switch, one of the catalog's languages) turns the Fields tab
 * into the side-by-side translation from the catalog's default language into that one.
 */
export default function ProductEditor() {
  const { productId = '' } = useParams();
  const { t } = useI18n();
  const { departmentId } = useSession();
  const product = useProduct(productId);
  const [params, setParams] = useSearchParams();
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  const deleteProduct = useDeleteProduct();
  const announce = useAnnounce();
  // A role without `product.write` (viewer, translator, reviewer, publisher) reads the tabs it may
  // not change with their controls disabled; a translator writes texts in the Translation tab.
  const mayWrite = useMay('product.write');
  const mayClassify = useMay('classification.write');
  const tab = params.get('tab') ?? 'fields';
  const p = product.data;
  const catalog = useCatalogs().data?.items.find((c) => c.catalogId === p?.catalogId);
  const language = catalog ? contentLanguageOf(params.get('language'), catalog) : null;
  const translating = catalog && language && language !== catalog.language ? language : null;
  // A completeness link names the input to fix (`focus=name`, lib/completeness.ts): focused once its tab shows.
  const focus = params.get('focus');
  // the tab and language shown are part of it: following another link focuses again
  const focusTarget = focus && p ? `${tab}|${translating ?? ''}|${focus}` : null;
  useEffect(() => {
    if (!focusTarget) return;
    const name = focusTarget.split('|').slice(2).join('|');
    // the tab's form may still be loading what it shows (attributes): try for a second
    let tries = 0;
    const timer = window.setInterval(() => {
      const input = document.querySelector<HTMLElement>(`main [name="${CSS.escape(name)}"]`);
      input?.focus();
      if (input || ++tries > 20) window.clearInterval(timer);
    }, 50);
    return () => window.clearInterval(timer);
  }, [focusTarget]);
  // Tabs and the language both live in the address: changing one keeps the other.
  const setParam = (name: 'tab' | 'language', value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  return (
    <QueryState isPending={product.isPending} error={product.error}>
      {p && (
        <>
          <nav aria-label={t('editor.breadcrumb')} className="breadcrumb">
            <Link to={`/products?catalog=${p.catalogId}`}>{t('nav.products')}</Link>
            {p.parentId && (
              <>
                {' › '}
                <Link to={`/products/${p.parentId}?tab=variants`}>{t('editor.master')}</Link>
              </>
            )}
          </nav>
          <div className="page-head">
            <h1>
              {p.name || t('editor.unnamed')} <span className="muted sku">{p.sku}</span>
            </h1>
            <div className="toolbar">
              {catalog && language && (
                <ContentLanguageSwitch
                  catalog={catalog}
                  value={language}
                  onChange={(code) => setParam('language', code === catalog.language ? null : code)}
                />
              )}
              {mayWrite && (
                <button type="button" className="danger-quiet" onClick={() => setDeleting(true)}>
                  {p.parentId ? t('variants.delete') : t('editor.delete')}
                </button>
              )}
            </div>
          </div>
          <Tabs
            label={t('editor.sections')}
            active={tab}
            onChange={(id) => setParam('tab', id)}
            tabs={[
              {
                id: 'fields',
                label: translating ? t('editor.tab.translation') : t('editor.tab.fields'),
                content: () =>
                  translating && catalog ? (
                    <TranslationForm product={p} defaultLanguage={catalog.language} language={translating} />
                  ) : (
                    readOnlyUnless(mayWrite, <FieldsForm product={p} />)
                  ),
              },
              {
                id: 'attributes',
                label: t('editor.tab.attributes'),
                content: () => readOnlyUnless(mayWrite, <AttributesForm product={p} />),
              },
              {
                id: 'classification',
                label: t('editor.tab.classification'),
                content: () => readOnlyUnless(mayClassify, <ClassificationEditor product={p} />),
              },
              {
                id: 'categories',
                label: t('editor.tab.categories'),
                content: () => readOnlyUnless(mayWrite, <PlacementsForm product={p} />),
              },
              ...(p.parentId
                ? []
                : [
                    {
                      id: 'variants',
                      label: t('editor.tab.variants', { count: p.variants.length }),
                      content: () => readOnlyUnless(mayWrite, <VariantsPanel product={p} />),
                    },
                  ]),
              {
                id: 'media',
                label: t('editor.tab.media', { count: p.media.filter((m) => m.kind === 'file').length }),
                content: () => readOnlyUnless(mayWrite, <MediaPanel product={p} />),
              },
              {
                id: 'links',
                label: t('editor.tab.links', { count: p.media.filter((m) => m.kind === 'link').length }),
                content: () => readOnlyUnless(mayWrite, <LinksPanel product={p} />),
              },
              {
                id: 'prices',
                label: t('editor.tab.prices', { count: p.prices.length }),
                content: () => readOnlyUnless(mayWrite, <PricesPanel product={p} />),
              },
              { id: 'history', label: t('editor.tab.history'), content: () => <HistoryPanel product={p} /> },
              {
                id: 'references',
                label: t('editor.tab.references'),
                content: () => readOnlyUnless(mayWrite, <ReferencesPanel product={p} />),
              },
              {
                id: 'completeness',
                label: t('editor.tab.completeness'),
                content: () => <CompletenessPanel product={p} />,
              },
              { id: 'review', label: t('editor.tab.review'), content: () => <ReviewPanel product={p} /> },
              {
                id: 'feature-blocks',
                label: t('editor.tab.featureBlocks', { count: p.featureBlocks.length }),
                content: () => readOnlyUnless(mayWrite, <FeatureBlocksPanel product={p} />),
              },
            ]}
          />
          <ConfirmDialog
            open={deleting}
            title={t('editor.deleteTitle')}
            message={t(p.variants.length ? 'editor.deleteTextVariants' : 'editor.deleteText', {
              sku: p.sku ?? '',
              name: p.name ?? '',
              count: p.variants.length,
            })}
            confirmLabel={t('common.delete')}
            onClose={() => setDeleting(false)}
            onConfirm={async () => {
              await deleteProduct.mutateAsync({
                departmentId,
                productId: p.productId,
                catalogId: p.catalogId,
                masterId: p.parentId,
              });
              announce(t('editor.deleted', { sku: p.sku ?? '' }));
              navigate(p.parentId ? `/products/${p.parentId}?tab=variants` : `/products?catalog=${p.catalogId}`);
            }}
          />
        </>
      )}
    </QueryState>
  );
}

/**
 * A tab the member's role may read but not change: its controls disabled together (a disabled
 * fieldset), so the values stay visible and nothing offers a write the server would refuse.
 */
function readOnlyUnless(may: boolean, content: ReactNode): ReactNode {
  return may ? (
    content
  ) : (
    <fieldset className="bare" disabled>
      {content}
    </fieldset>
  );
}
