import { canonical } from '../lib/cursor';
import type { ListQuery } from './models';

/**
 * Every query key of the web app, one per resource, so a write (`mutations.ts`) refreshes
 * exactly what it changed. A key that is a prefix of others (`products(catalogId)`) refreshes
 * all of them: every filtered list of that catalog.
 */
export const keys = {
  me: ['me'] as const,
  stats: ['stats'] as const,
  catalogs: ['catalogs'] as const,
  /** One level of the tree; `categoriesOf` is every level of the catalog. */
  categories: (catalogId: string, parentId: string | null) => ['categories', catalogId, parentId] as const,
  categoriesOf: (catalogId: string | undefined) => ['categories', catalogId] as const,
  categoryTree: (catalogId: string | undefined) => ['categoryTree', catalogId] as const,
  /** The tree with every language's names (`languages=all`); under `categoryTree`, so a tree change refreshes it. */
  categoryTreeAll: (catalogId: string) => ['categoryTree', catalogId, 'all'] as const,
  /** Every product list of a catalog (all filters, sorts and column choices). */
  products: (catalogId: string) => ['products', catalogId] as const,
  /**
   * One list: a different filter or sort is a different list with its own cursors; the
   * attribute codes whose values come with the rows (GetProducts `attributes`) are part of it.
   */
  productList: (query: ListQuery, attributes: readonly string[] = []) =>
    ['products', query.catalogId, canonical(query), attributes.join(',')] as const,
  product: (productId: string) => ['product', productId] as const,
  /** A product read in one content language with every language's texts (under `product`, so its refresh covers it). */
  productIn: (productId: string, language: string) => ['product', productId, 'language', language] as const,
  history: (elementId: string) => ['history', elementId] as const,
  references: (productId: string) => ['references', productId] as const,
  featureBlocks: (productId: string) => ['featureBlocks', productId] as const,
  classification: (elementId: string) => ['classification', elementId] as const,
  classFeatures: (group: string, classCode: string) => ['classFeatures', group, classCode] as const,
  releaseClassFeatures: (release: string, classCode: string, lang: string) =>
    ['releaseClassFeatures', release, classCode, lang] as const,
  groupReleases: (group: string) => ['groupReleases', group] as const,
  releases: ['releases'] as const,
  releaseClassSearch: (release: string, q: string, classGroup: string, lang: string) =>
    ['releaseClassSearch', release, q, classGroup, lang] as const,
  releaseGroups: (release: string, lang: string) => ['releaseGroups', release, lang] as const,
  classSearch: (group: string, q: string) => ['classSearch', group, q] as const,
  attributes: ['attributes'] as const,
  /** A server-searched page list of the attributes (the shop mapping's pick list); under `attributes`, so a write refreshes it. */
  attributeChoices: (q = '') => ['attributes', 'choices', q] as const,
  /** Every job list; `jobList` is one length of it. */
  jobs: ['jobs'] as const,
  jobList: (limit: number) => ['jobs', limit] as const,
  job: (jobId: string) => ['job', jobId] as const,
  templates: ['templates'] as const,
  users: ['users'] as const,
  /** The built-in and custom roles (GetRoles). */
  roles: ['roles'] as const,
  invitations: ['invitations'] as const,
  memberChanges: ['member-changes'] as const,
  sso: ['sso'] as const,
  /** The company's webhook endpoints; `webhookDeliveries` (under it) is one endpoint's delivery log. */
  webhooks: ['webhooks'] as const,
  webhookDeliveries: (endpointId: string) => ['webhooks', 'deliveries', endpointId] as const,
  /** One endpoint's log with a status filter (under `webhookDeliveries`, refreshed with it). */
  webhookDeliveryList: (endpointId: string, status: string) => ['webhooks', 'deliveries', endpointId, status] as const,
  syncConnections: ['sync', 'connections'] as const,
  syncRuns: (connectionId: string) => ['sync', 'runs', connectionId] as const,
  /** What a shop kind needs (GetShopDefaults): fixed per server version, never invalidated. */
  shopDefaults: (kind: string) => ['sync', 'shopDefaults', kind] as const,
  /** The price types or feature systems a catalog's products use (GetCodesInUse): the mapping editor's choices. */
  codesInUse: (catalogId: string, list: string, q = '') => ['catalogs', catalogId, 'codesInUse', list, q] as const,
  /** Every list of past imports; `importList` is the one of a catalog. */
  imports: ['imports'] as const,
  importList: (catalogId: string) => ['imports', 'list', catalogId] as const,
  importOne: (jobId: string) => ['imports', 'one', jobId] as const,
  /** The company's content languages (GetLanguages; docs/languages.md). */
  languages: ['languages'] as const,
  /** The company's channels (GetChannels); `completenessOf` is under `product`, so a product's refresh covers it. */
  channels: ['channels'] as const,
  /** A channel's review inbox, page by page (GetReviewInbox; docs/review.md). */
  reviewInbox: (channelId: string, cursor: string) => ['review', channelId, cursor] as const,
  review: ['review'] as const,
  completenessOf: (productId: string) => ['product', productId, 'completeness'] as const,
  /** A product's review state per channel (GetReviewState), under `product` so a save refreshes it. */
  reviewStateOf: (productId: string) => ['product', productId, 'review'] as const,
  /** The overview per channel and language and its 30-day trend (both under `completeness`). */
  completenessOverview: ['completeness', 'overview'] as const,
  completenessTrend: (days: number) => ['completeness', 'trend', days] as const,
  incompleteVariants: (channel: string, language: string, requirement: string, cursor: string) =>
    ['completeness', 'variants', channel, language, requirement, cursor] as const,
  /** One category by id with the names above it (GetCategory; a channel requirement's limit); `categoryPaths` is all of them. */
  categoryPaths: ['categoryPath'] as const,
  categoryPath: (categoryId: string) => ['categoryPath', categoryId] as const,
  /** Categories of a catalog found by name, with their paths (SearchCategories; under `categoryPaths`). */
  categorySearch: (catalogId: string, q: string) => ['categoryPath', 'search', catalogId, q] as const,
};
