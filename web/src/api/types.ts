import type { ProductStatus } from '../../../src/kernel/product-status';

/** Shapes of the REST API as /api/openapi.json documents them (only what the screens read). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Account {
  user: { userId: string; email: string; name: string };
  company: { companyId: string; name: string };
  departmentId: string;
  departments: { departmentId: string; name: string }[];
  role: 'admin' | 'editor';
  companyCount: number;
  aiMayEditClassifications: boolean;
}

export interface Stats {
  catalogs: number;
  categories: number;
  products: number;
}

export interface Catalog {
  catalogId: string;
  departmentId: string;
  name: string;
  catalogType: string | null;
  catalogVersion: string | null;
  description: string | null;
  language: string;
  currency: string;
  categoryCount: number;
  productCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface Category {
  categoryId: string;
  catalogId: string;
  parentId: string | null;
  name: string;
  description: string | null;
  sortOrder: number;
  /** Products placed directly here (served once the API has it, API-CONTRACTS "Web-app operations"). */
  productCount?: number;
  subtreeProductCount?: number;
  /** Whether the category has children, when the API says so. */
  hasChildren?: boolean;
  childCount?: number;
}

/** The server's one list (src/kernel/product-status.ts imports nothing, so the web app bundles it as it is). */
export { PRODUCT_STATUSES } from '../../../src/kernel/product-status';

export interface Product {
  productId: string;
  catalogId: string;
  departmentId: string;
  parentId: string | null;
  sku: string | null;
  name: string | null;
  description: string | null;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerPid: string | null;
  unit: string | null;
  price: string | null;
  priceQuantity: number | null;
  keywords: string | null;
  deliveryTimeDays: number | null;
  status: ProductStatus;
  categoryIds: string[];
  createdAt: string;
  updatedAt: string;
  /** Attribute values when the list carries them. */
  values?: ElementValue[];
}

interface ElementValue {
  code: string;
  type: string;
  value: string;
  unit: string | null;
}

export interface Media {
  mediaId: string;
  purpose: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ProductDetail extends Product {
  values: ElementValue[];
  classification: {
    linkId: string;
    name: string;
    classificationGroups: number;
    classes: { group: string; system: string; code: string; name?: string }[];
    features: { group: string; code: string; value: string; unit: string | null; name?: string }[];
  } | null;
  media: Media[];
  variants: Product[];
}

export interface Attribute {
  attributeId: string;
  code: string;
  name: string;
  type: 'text' | 'number' | 'boolean' | 'enum' | 'range';
  unit: string | null;
  enumValues: string[] | null;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Job {
  jobId: string;
  kind: string;
  state: JobState;
  progress: { done: number; total: number };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  result:
    | ({ fileName?: string; contentType?: string; size?: number; report?: unknown } & Record<string, unknown>)
    | null;
  warnings: string[];
}

export interface ExportTemplate {
  templateId: string;
  name: string;
  exportType: string;
  language: string;
  options: TemplateOptions;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateOptions {
  namespace?: '2005fd' | '2005';
  classificationSystems?: ('ETIM' | 'ECLASS' | 'PROFICLASS')[];
  priceType?: string;
  categoryId?: string | null;
  statuses?: ProductStatus[];
  includeAttributes?: boolean;
  inheritFromMaster?: boolean;
  mimeRoot?: string;
  buyerName?: string;
}

export const EXPORT_TYPES = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12', 'CSV'] as const;

export interface UserRow {
  userId: string;
  email: string;
  name: string;
  role: 'admin' | 'editor';
  aiMayEditClassifications: boolean;
}

const TERMINAL_STATES: JobState[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminal = (state: JobState) => TERMINAL_STATES.includes(state);

/** One version of an element (`Catalog/GetHistory`, docs/history.md). */
interface HistoryChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface HistoryItem {
  versionId: string;
  at: string;
  action: 'create' | 'update' | 'delete' | 'restore';
  elementKind: string;
  user: { userId: string; name: string | null };
  surface: 'web' | 'agent' | 'mcp' | 'job';
  clientName?: string;
  jobId?: string;
  changes: HistoryChange[];
}

export interface RestoreResult {
  elementId: string;
  restoredFrom: string;
  versionId: string | null;
  changes: HistoryChange[];
  skipped: { elementId: string; path: string; reason: string }[];
}
