import { MEDIA_PURPOSES as SERVER_MEDIA_PURPOSES } from '../../../src/kernel/media-purposes';
import type { BodyOf, GetResult, PostResult, QueryOf } from './operations';
import type { components } from './schema';

/**
 * Names for the API's shapes the screens pass around, each read off the operation that sends it
 * (`operations.ts`, generated from the OpenAPI document). No shape is written here by hand; the
 * few value lists below are checked against the generated enums, so they cannot drift either.
 */
type Item<T> = T extends { items: (infer I)[] } ? I : never;

/** One page of a keyset-paginated list (every list operation pages the same way). */
export type Page<T> = Omit<GetResult<'Catalog/GetProducts'>, 'items'> & { items: T[] };

export type Account = GetResult<'Account/Me'>;
export type UserRow = Item<GetResult<'Account/GetUsers'>>;
export type Invitation = Item<GetResult<'Account/GetInvitations'>>;
export type MemberChange = Item<GetResult<'Account/GetMemberChanges'>>;
export type InvitationView = GetResult<'Account/GetInvitation'>;
export type Stats = GetResult<'Catalog/GetStats'>;
export type Catalog = GetResult<'Catalog/GetCatalog'>;
/** The company's content languages (docs/languages.md) and one language of them. */
export type CompanyLanguages = GetResult<'Catalog/GetLanguages'>;
export type ContentLanguage = CompanyLanguages['available'][number];
export type Category = Item<GetResult<'Catalog/GetCategories'>>;
export type CategoryTreeNode = Item<GetResult<'Catalog/GetCategoryTree'>>;
export type Product = Item<GetResult<'Catalog/GetProducts'>>;
export type ProductDetail = GetResult<'Catalog/GetProduct'>;
export type Media = ProductDetail['media'][number];
export type Attribute = Item<GetResult<'Catalog/GetAttributes'>>;
export type Job = GetResult<'Job/GetJob'>;
export type JobState = Job['state'];
export type ExportTemplate = Item<GetResult<'Export/GetTemplates'>>;
export type TemplateOptions = NonNullable<BodyOf<'Export/AddTemplate'>['options']>;
/** The product grid's filter and sort: GetProducts' parameters without paging and columns. */
export type ListQuery = Omit<QueryOf<'Catalog/GetProducts'>, 'cursor' | 'limit' | 'attributes'>;
export type HistoryItem = Item<GetResult<'Catalog/GetHistory'>>;
export type Connection = Item<GetResult<'Sync/GetConnections'>>;
export type SyncRun = Item<GetResult<'Sync/GetRuns'>>;
export type SyncReport = NonNullable<SyncRun['report']>;
/** A connection's shop (docs/shops.md "The PIM side"): its kind, URL and mapping as reads show them. */
export type ConnectionShop = NonNullable<Connection['shop']>;
export type ShopKind = ConnectionShop['kind'];
export type TargetMapping = ConnectionShop['mapping'];
/** The shop of a connection write: `{kind, url?, credentials?, mapping?}`. */
export type ShopInput = NonNullable<BodyOf<'Sync/AddConnection'>['shop']>;
export type ShopDefaults = GetResult<'Sync/GetShopDefaults'>;
export type TestConnectionResult = PostResult<'Sync/TestConnection'>;
export type MassEditReport = components['schemas']['MassEditReport'];
export type ClassEntry = Item<GetResult<'Classification/SearchClasses'>>;
export type FeatureDef = GetResult<'Classification/GetClassFeatures'>['features'][number];
export type ElementClassification = NonNullable<GetResult<'Classification/GetElementClassification'>['classification']>;

/** The server's one list (src/kernel/product-status.ts imports nothing, so the web app bundles it as it is). */
export { PRODUCT_STATUSES } from '../../../src/kernel/product-status';

export const EXPORT_TYPES = [
  'BMEcat',
  'BMEcat-ETIM',
  'BMEcat12',
  'BMEcat-2005onto',
  'CSV',
] as const satisfies readonly BodyOf<'Export/AddTemplate'>['exportType'][];

/** BMEcat MIME_PURPOSE values, as media, links and a shop's image choice offer them. */
export const MEDIA_PURPOSES = SERVER_MEDIA_PURPOSES satisfies readonly NonNullable<
  BodyOf<'Media/AddLink'>['purpose']
>[];

/** The shop engines a connection can write into, in the order the form offers them (the reference store first). */
export const SHOP_KINDS = [
  'reference',
  'shopware',
  'shopify',
  'vendure',
  'medusa',
] as const satisfies readonly ShopKind[];

const TERMINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];
/** A job in one of these states will not change again (stop polling). */
export const isTerminal = (state: string) => (TERMINAL_STATES as readonly string[]).includes(state);

/** Imports (docs/web.md "Imports"): one past import, one import with its file's facts and report groups. */
export type ImportItem = Item<GetResult<'Import/GetImports'>>;
export type ImportDetail = GetResult<'Import/GetImport'>;
export type ReportGroup = ImportDetail['groups'][number];
export type ImportMode = BodyOf<'Import/StartImport'>['mode'];
export type ReviewItem = Item<GetResult<'Catalog/GetReviewInbox'>>;
export type ReviewChange = ReviewItem['changes'][number];

/** What a role permits (docs/teams.md), as `Account/Me` lists it. */
export type Permission = Account['permissions'][number];

/** A member's built-in role (docs/teams.md), in the order the screens offer them. */
export const ROLES = ['viewer', 'translator', 'reviewer', 'publisher', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** A member's role as the API names it: a built-in role, or a custom role's id (`Account/GetRoles`). */
export type MemberRole = UserRow['role'];
/** A built-in or custom role with its permissions (`Account/GetRoles`). */
export type RoleItem = Item<GetResult<'Account/GetRoles'>>;
export const isBuiltInRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);
