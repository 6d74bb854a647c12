import { dbNow } from '../kernel/clock';
/**
 * The whole PIM data model. drizzle-kit generates the SQL in migrations/ from this file.
 *
 * Every tenant-owned table carries `companyId`, and every query filters by it: the company is
 * the tenant boundary. Timestamps are ISO-8601 strings in UTC.
 */
import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CLASSIFICATION_GROUPS } from '../kernel/classification-groups';
import { type MemberRole, type Permission, ROLES, type Role } from '../kernel/permissions';
import { DEFAULT_PRODUCT_STATUS, PRODUCT_STATUSES } from '../kernel/product-status';
import type { TargetKind, TargetMappingInput } from '../sync/protocol/target';

const createdAt = () => text('created_at').notNull().default(dbNow);
const updatedAt = () => text('updated_at').notNull().default(dbNow);

// ---------------------------------------------------------------- tenancy and accounts

export const companies = sqliteTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  /** How long change history is kept (docs/history.md); pruned by the Cron Trigger. */
  historyRetentionMonths: integer('history_retention_months').notNull().default(24),
  /** When pruning last finished for this company: the least recently pruned go first (bounded runs). */
  historyPrunedAt: text('history_pruned_at'),
  /** The content languages the company enables (ISO 639-2 codes, JSON list; migration 0019, docs/languages.md). */
  languages: text('languages', { mode: 'json' }).notNull().default(['deu']).$type<string[]>(),
  /** The language new catalogs and the web app start in; one of `languages`. */
  defaultLanguage: text('default_language').notNull().default('deu'),
});

export const departments = sqliteTable(
  'departments',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('departments_company_idx').on(t.companyId)],
);

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  passwordSalt: text('password_salt').notNull(),
  /** Changes on password change and on "revoke AI access"; every token carries the stamp it was issued under. */
  securityStamp: text('security_stamp').notNull(),
  /** The account switch "AI may edit classifications". */
  aiMayEditClassifications: integer('ai_may_edit_classifications', { mode: 'boolean' }).notNull().default(false),
  /** The service operator (migration 0056): changes the reference data every company shares. Granted out of band only. */
  isOperator: integer('is_operator', { mode: 'boolean' }).notNull().default(false),
  createdAt: createdAt(),
});

export const memberships = sqliteTable(
  'memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** A built-in role (kernel/permissions.ts; admin and editor before migration 0060) or a custom role's id (migration 0068). */
    role: text('role').$type<MemberRole>().notNull(),
    defaultDepartmentId: text('default_department_id')
      .notNull()
      .references(() => departments.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] }), index('memberships_company_idx').on(t.companyId)],
);

/** The kinds of scope a membership can have (migration 0060); only `language` is enforced yet (docs/teams.md). */
export const MEMBERSHIP_SCOPE_KINDS = ['language', 'catalog', 'category', 'channel'] as const;

/** One scope of a membership: its role writes only within them (a translator's languages). WITHOUT ROWID. */
export const membershipScopes = sqliteTable(
  'membership_scopes',
  {
    companyId: text('company_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: MEMBERSHIP_SCOPE_KINDS }).notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId, t.kind, t.value] }),
    // the cron's read of the memberships whose scope names a catalog (migration 0094)
    index('membership_scopes_kind_idx').on(t.kind, t.companyId, t.userId),
  ],
);

/** What a `member_changes` row records (docs/teams.md). */
export const MEMBER_CHANGE_ACTIONS = [
  'role',
  'invite',
  'revoke-invitation',
  'join',
  'deactivate',
  'reactivate',
  'create-role',
  'update-role',
  'delete-role',
] as const;
export type MemberChangeAction = (typeof MEMBER_CHANGE_ACTIONS)[number];

/**
 * A company's own role (migration 0068, docs/teams.md "Custom roles"): a name and a set of
 * permissions from the fixed list (never `company.admin`). A membership holding it stores its id
 * in `memberships.role`; sessions and agent tokens read its permissions at every request.
 */
export const customRoles = sqliteTable(
  'custom_roles',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: text('permissions', { mode: 'json' }).notNull().$type<Permission[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('custom_roles_company_name_unique').on(t.companyId, sql`lower(${t.name})`)],
);

/** A change of a member's role or scopes (migration 0060): who, through what, when, `[[path, before, after], ...]`. */
export const memberChanges = sqliteTable(
  'member_changes',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    userId: text('user_id').notNull(),
    changedBy: text('changed_by').notNull(),
    surface: text('surface').notNull(),
    changes: text('changes').notNull(),
    at: text('at').notNull().default(dbNow),
    /** What the change was (migration 0063): `role`, `invite`, `revoke-invitation`, `join`, `deactivate`, `reactivate`. */
    action: text('action', { enum: MEMBER_CHANGE_ACTIONS }).notNull().default('role'),
  },
  (t) => [
    index('member_changes_company_idx').on(t.companyId, t.userId, t.id),
    index('member_changes_company_id_idx').on(t.companyId, t.id),
  ],
);

/**
 * An invitation to join a company with a role (migration 0063, docs/teams.md): single use,
 * revocable, expiring; only the SHA-256 of the link's token is stored.
 */
export const invitations = sqliteTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    languages: text('languages', { mode: 'json' }).notNull().default([]).$type<string[]>(),
    /** The catalog, category and channel scopes as `[kind, value]` pairs, given to the membership on acceptance (migration 0068). */
    scopes: text('scopes', { mode: 'json' }).notNull().default([]).$type<[string, string][]>(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').notNull(),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    acceptedAt: text('accepted_at'),
    acceptedBy: text('accepted_by'),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('invitations_token_idx').on(t.tokenHash), index('invitations_company_idx').on(t.companyId, t.id)],
);

/** A deactivated member (migration 0063): the membership is gone; this keeps what a reactivation restores. */
export const memberDeactivations = sqliteTable(
  'member_deactivations',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    languages: text('languages', { mode: 'json' }).notNull().default([]).$type<string[]>(),
    /** The catalog, category and channel scopes as `[kind, value]` pairs, restored with the membership. */
    scopes: text('scopes', { mode: 'json' }).notNull().default([]).$type<[string, string][]>(),
    defaultDepartmentId: text('default_department_id').notNull(),
    deactivatedBy: text('deactivated_by').notNull(),
    deactivatedAt: text('deactivated_at').notNull().default(dbNow),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a stolen database does not yield usable cookies. */
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: text('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    expiresAt: text('expires_at').notNull(),
    createdAt: createdAt(),
    /** A session opened through SSO: its ID token, sealed (migration 0061), the id_token_hint of the sign-out at the provider. */
    ssoIdToken: text('sso_id_token'),
    /** A session opened through SSO: the provider's end_session_endpoint, where sign-out sends the browser. */
    ssoLogoutUrl: text('sso_logout_url'),
    /** A session opened through SSO: its ID token's `sub`, which a back-channel logout token names (migration 0066). */
    ssoSubject: text('sso_subject'),
    /** A session opened through SSO: its ID token's `sid` (the session at the provider), when the provider sends one. */
    ssoSid: text('sso_sid'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
    index('sessions_sso_subject_idx').on(t.companyId, t.ssoSubject).where(sql`${t.ssoSubject} IS NOT NULL`),
  ],
);

/** Back-channel logout tokens already acted on (migration 0066): replays are refused until `expiresAt`. */
export const ssoLogoutTokens = sqliteTable(
  'sso_logout_tokens',
  {
    jtiHash: text('jti_hash').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('sso_logout_tokens_expires_idx').on(t.expiresAt)],
);

// ---------------------------------------------------------------- single sign-on (docs/sso.md, migration 0054)

/** A company's role mapping entry: members of the IdP group `group` get `role`. */
export interface SsoGroupRole {
  group: string;
  /** A built-in role or a custom role's id (migration 0068). */
  role: MemberRole;
}

/** The company's OpenID Connect identity provider. */
export const ssoSettings = sqliteTable(
  'sso_settings',
  {
    companyId: text('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The company's sign-in name (`/sign-in?sso=<slug>`), unique across companies. */
    slug: text('slug').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    /** Sealed with SSO_ENCRYPTION_KEY (src/kernel/secret-box.ts); never returned by any API. */
    clientSecret: text('client_secret').notNull(),
    scopes: text('scopes').notNull().default('openid email profile'),
    groupsClaim: text('groups_claim').notNull().default('groups'),
    groupRoles: text('group_roles', { mode: 'json' }).notNull().default([]).$type<SsoGroupRole[]>(),
    /** The role of a member in none of the mapped groups; null refuses them. */
    defaultRole: text('default_role').$type<MemberRole>(),
    /** Passwords are refused for the company's members (but the break-glass admin's). */
    mandatory: integer('mandatory', { mode: 'boolean' }).notNull().default(false),
    breakGlassUserId: text('break_glass_user_id').references(() => users.id, { onDelete: 'set null' }),
    discovery: text('discovery', { mode: 'json' }).$type<Record<string, unknown>>(),
    discoveryFetchedAt: text('discovery_fetched_at'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sso_settings_slug_unique').on(t.slug)],
);

/** A sign-in in flight: single use, bound to the browser, ten minutes. */
export const ssoLogins = sqliteTable(
  'sso_logins',
  {
    stateHash: text('state_hash').primaryKey(),
    browserHash: text('browser_hash').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('sso_logins_expires_idx').on(t.expiresAt)],
);

/** A member as the company's identity provider knows them. */
export const ssoIdentities = sqliteTable(
  'sso_identities',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The OpenID `sub`, set at the first SSO sign-in. */
    subject: text('subject'),
    /** The SCIM `externalId`. */
    externalId: text('external_id'),
    /** False once SCIM deactivated the member (their membership is removed meanwhile). */
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    /**
     * The role the provider's groups last mapped the member to (migration 0077): the mapping is
     * applied again only when it maps to another role, so an admin's hand-given role lasts until
     * then (docs/sso.md "Roles given by hand"). Null: never mapped since the migration.
     */
    mappedRole: text('mapped_role'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId] }),
    uniqueIndex('sso_identities_subject_unique').on(t.companyId, t.subject),
  ],
);

/** SCIM bearer tokens, kept as SHA-256 only. */
export const scimTokens = sqliteTable(
  'scim_tokens',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: text('last_used_at'),
  },
  (t) => [uniqueIndex('scim_tokens_hash_unique').on(t.tokenHash), index('scim_tokens_company_idx').on(t.companyId)],
);

export const scimGroups = sqliteTable(
  'scim_groups',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    externalId: text('external_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('scim_groups_name_unique').on(t.companyId, t.displayName)],
);

export const scimGroupMembers = sqliteTable(
  'scim_group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => scimGroups.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] })],
);

// ---------------------------------------------------------------- catalog

export const catalogs = sqliteTable(
  'catalogs',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: text('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    catalogType: text('catalog_type'),
    catalogVersion: text('catalog_version'),
    /** The catalog's default language: the one its elements' own columns hold (docs/languages.md). */
    language: text('language').notNull().default('deu'),
    /** The languages the catalog publishes (JSON list, `language` first; migration 0019). */
    languages: text('languages', { mode: 'json' }).notNull().default(['deu']).$type<string[]>(),
    currency: text('currency').notNull().default('EUR'),
    /** Maintained in the same batch as every insert and delete, so GetStats never counts rows. */
    categoryCount: integer('category_count').notNull().default(0),
    productCount: integer('product_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('catalogs_company_idx').on(t.companyId, t.id), index('catalogs_department_idx').on(t.departmentId)],
);

export const categories = sqliteTable(
  'categories',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    description: text('description'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Products placed directly here; kept by triggers on product_categories (migrations/0007_web.sql). */
    productCount: integer('product_count').notNull().default(0),
    /**
     * BMEcat group data (migration 0051, docs/data-model.md "Category data"), NULL when the
     * category has none: the group's KEYWORDs joined by ", " (as a product's keywords), its
     * FEATUREs as the JSON list of a feature block's features, and its USER_DEFINED_EXTENSIONS
     * content as verbatim XML.
     */
    keywords: text('keywords'),
    features: text('features'),
    udx: text('udx'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('categories_catalog_idx').on(t.catalogId, t.parentId, t.sortOrder),
    index('categories_company_idx').on(t.companyId),
    index('categories_parent_idx').on(t.parentId),
  ],
);

/**
 * Master products and variants share one table: a variant is a product row whose `parentId`
 * names its master. Built-in fields are columns; everything else is an attribute value.
 *
 * Not expressible here, created by migration 0004 (docs/search.md): the FTS5 table
 * `products_fts` over the masters' sku, name, manufacturer_pid, gtin and keywords, kept current
 * by triggers on this table. Its rows are keyed by this table's rowid: never rewrite product
 * rows with INSERT OR REPLACE (the replaced row's delete trigger does not fire); use UPSERT.
 */
export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    sku: text('sku'),
    name: text('name'),
    description: text('description'),
    gtin: text('gtin'),
    manufacturerName: text('manufacturer_name'),
    manufacturerPid: text('manufacturer_pid'),
    /** UN/ECE Recommendation 20 code, e.g. C62 (piece), MTR (metre). */
    unit: text('unit'),
    /** Net list price as a decimal string, never a float. */
    price: text('price'),
    priceQuantity: integer('price_quantity'),
    /**
     * BMEcat's order details beyond ORDER_UNIT and PRICE_QUANTITY (migration 0091): CONTENT_UNIT
     * (a UN/ECE Recommendation 20 code, as `unit`), NO_CU_PER_OU, QUANTITY_MIN and
     * QUANTITY_INTERVAL, the three quantities positive decimals as written (text, as `price`).
     */
    contentUnit: text('content_unit'),
    contentPerUnit: text('content_per_unit'),
    quantityMin: text('quantity_min'),
    quantityInterval: text('quantity_interval'),
    keywords: text('keywords'),
    deliveryTimeDays: integer('delivery_time_days'),
    status: text('status', { enum: PRODUCT_STATUSES }).notNull().default(DEFAULT_PRODUCT_STATUS),
    /** Bumped in the same batch as any change to the master's sync record. */
    revision: integer('revision').notNull().default(0),
    /** SHA-256 over the master's sync record, valid for `fingerprintRevision`. Masters only. */
    fingerprint: text('fingerprint'),
    fingerprintRevision: integer('fingerprint_revision').notNull().default(-1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('products_catalog_sku_uq').on(t.catalogId, t.sku),
    // Masters-only indexes of the product list's orders and of exports (migration 0004, docs/search.md).
    index('products_catalog_master_id_idx').on(t.catalogId, t.id).where(sql`parent_id IS NULL`),
    index('products_list_name_idx').on(t.catalogId, sql`${t.name} COLLATE NOCASE`, t.id).where(sql`parent_id IS NULL`),
    index('products_list_updated_idx').on(t.catalogId, t.updatedAt, t.id).where(sql`parent_id IS NULL`),
    index('products_parent_idx').on(t.parentId).where(sql`parent_id IS NOT NULL`),
    // Partial indexes of the few masters a filter names (migration 0012, docs/search.md "Filter plans"):
    // a catalog that is mostly active and complete keeps them small.
    index('products_filter_status_idx').on(t.catalogId, t.status).where(sql`parent_id IS NULL AND status <> 'active'`),
    index('products_filter_no_gtin_idx').on(t.catalogId).where(sql`parent_id IS NULL AND (gtin IS NULL OR gtin = '')`),
    index('products_filter_no_price_idx')
      .on(t.catalogId)
      .where(sql`parent_id IS NULL AND (price IS NULL OR price = '')`),
    // Duplicate GTINs within a company (completeness rule gtinUnique, migration 0026).
    index('products_gtin_idx').on(t.gtin).where(sql`gtin IS NOT NULL AND gtin <> ''`),
    // The targets of references by manufacturer number (migration 0070).
    index('products_catalog_mpn_idx').on(t.catalogId, t.manufacturerPid).where(sql`manufacturer_pid IS NOT NULL`),
  ],
);

/** Products placed in categories (PRODUCT_TO_CATALOGGROUP_MAP in BMEcat). */
export const productCategories = sqliteTable(
  'product_categories',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    /**
     * The product's SKU, copied by triggers (migration 0047): writers leave it out. Orders a
     * category's placements by SKU in `product_categories_category_idx` (product-list-source.ts,
     * `placementSource`).
     */
    sku: text('sku'),
  },
  // No company_id (migration 0010): the tenant is the product's and the category's; every read
  // reaches these rows through a tenant-checked product or category.
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index('product_categories_category_idx').on(t.categoryId, t.sku),
  ],
);

/**
 * A product's price list (migration 0015, docs/data-model.md "Prices"): one row per price in
 * list order. `amount` NULL marks the default row: its amount is `products.price`. Territory
 * is a comma-separated list of ISO 3166 codes. WITHOUT ROWID (drizzle cannot declare it).
 */
export const productPrices = sqliteTable(
  'product_prices',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    amount: text('amount'),
    currency: text('currency'),
    tax: text('tax'),
    factor: text('factor'),
    lowerBound: text('lower_bound'),
    territory: text('territory'),
    validFrom: text('valid_from'),
    validTo: text('valid_to'),
    daily: integer('daily', { mode: 'boolean' }),
    /** PRICE_BASE (migration 0046): the amount is for `baseValue` x `baseUnit`; NULL = per order unit. */
    baseValue: text('base_value'),
    baseUnit: text('base_unit'),
    baseFactor: text('base_factor'),
    /** PRICE_FLAG (migration 0086): JSON text `{"incl_freight":true}`; NULL = none. */
    flags: text('flags'),
    /** PRICE_FORMULA (migration 0086): JSON text `{"id":"F1","parameters":[...]}`; NULL = an amount or none. */
    formula: text('formula'),
  },
  (t) => [primaryKey({ columns: [t.productId, t.position] })],
);

// ---------------------------------------------------------------- attributes

export const attributes = sqliteTable(
  'attributes',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The field name SetValue uses. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['text', 'number', 'boolean', 'enum', 'range'] }).notNull(),
    unit: text('unit'),
    /** JSON array of allowed codes for enum attributes. */
    enumValues: text('enum_values', { mode: 'json' }).$type<string[]>(),
    /** A text attribute whose value is kept per language (migration 0019, docs/languages.md). */
    localizable: integer('localizable', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('attributes_company_code_uq').on(t.companyId, t.code)],
);

export const attributeValues = sqliteTable(
  'attribute_values',
  {
    elementId: text('element_id').notNull(),
    attributeId: text('attribute_id')
      .notNull()
      .references(() => attributes.id, { onDelete: 'cascade' }),
    /** The string as given, normalised (e.g. "230" for a number, "true" for a boolean). */
    value: text('value').notNull(),
    numberValue: real('number_value'),
    numberValueTo: real('number_value_to'),
  },
  // WITHOUT ROWID, like memberships, product_categories and classification_link_classes/_features
  // (migration 0004; drizzle cannot declare it): the primary key is the table, no second copy.
  // No company_id (migration 0010): the tenant is the attribute's (`attributes.company_id`), which
  // every read joins; the element was tenant-checked before any write.
  (t) => [primaryKey({ columns: [t.elementId, t.attributeId] })],
);

// ---------------------------------------------------------------- classification reference data

/** Standard classes (ETIM EC..., eCl@ss / proficl@ss class codes). Global reference data. */
export const classificationClasses = sqliteTable(
  'classification_classes',
  {
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    system: text('system').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.group, t.code] })],
);

/** Features (ETIM EF..., eCl@ss property ids). Types follow ETIM: A alphanumeric (enum), N numeric, R range, L logical. */
export const classificationFeatures = sqliteTable(
  'classification_features',
  {
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['A', 'N', 'R', 'L'] }).notNull(),
    unit: text('unit'),
  },
  (t) => [primaryKey({ columns: [t.group, t.code] })],
);

/** Enumerated values (ETIM EV...) allowed for alphanumeric features. */
export const classificationFeatureValues = sqliteTable(
  'classification_feature_values',
  {
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    featureCode: text('feature_code').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.group, t.featureCode, t.code] })],
);

/** Which features a class carries. */
export const classificationClassFeatures = sqliteTable(
  'classification_class_features',
  {
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    classCode: text('class_code').notNull(),
    featureCode: text('feature_code').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.group, t.classCode, t.featureCode] })],
);

// ---------------------------------------------------------------- classification links

/** Links one catalog element to standard classes; addressed by `linkId` on the agent surface. */
export const classificationLinks = sqliteTable(
  'classification_links',
  {
    /** The row's integer key (its rowid): what the link's classes and features reference (migration 0010). */
    id: integer('id').primaryKey(),
    /** The link's public id. */
    linkId: text('link_id').notNull().unique(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    elementId: text('element_id').notNull(),
    name: text('name').notNull(),
    /** Bitmask: 1 ETIM, 2 ECLASS, 4 PROFICLASS. */
    classificationGroups: integer('classification_groups').notNull(),
    // No timestamps (dropped in migration 0047, read by nothing): the change history says when
    // and by whom a classification changed.
  },
  (t) => [
    uniqueIndex('classification_links_element_uq').on(t.elementId),
    index('classification_links_company_idx').on(t.companyId),
  ],
);

export const classificationLinkClasses = sqliteTable(
  'classification_link_classes',
  {
    /** `classification_links.id`, not the public link id (migration 0010). */
    linkId: integer('link_id')
      .notNull()
      .references(() => classificationLinks.id, { onDelete: 'cascade' }),
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    system: text('system').notNull(),
    code: text('code').notNull(),
    /** Kept verbatim from an import: the class (or its system's release) is not in the reference data (migration 0013). */
    unverified: integer('unverified', { mode: 'boolean' }).notNull().default(false),
    /** The loaded release the class and its features were checked against (ETIM-9.0); null: the sample reference data (migration 0020). */
    release: text('release'),
    /** ETIM: the class version the supplier classified against (xChange EtimClassVersion, migration 0082). */
    classVersion: integer('class_version'),
    /** ETIM DYNAMIC: the date of the model the supplier classified against (xChange EtimDynamicReleaseDate, migration 0082). */
    dynamicReleaseDate: text('dynamic_release_date'),
  },
  (t) => [
    primaryKey({ columns: [t.linkId, t.group] }),
    index('classification_link_classes_release_idx').on(t.release, t.linkId).where(sql`${t.release} IS NOT NULL`),
    index('classification_link_classes_unverified_idx').on(t.linkId).where(sql`${t.unverified} = 1`),
  ],
);

export const classificationLinkFeatures = sqliteTable(
  'classification_link_features',
  {
    /** `classification_links.id`, not the public link id (migration 0010). */
    linkId: integer('link_id')
      .notNull()
      .references(() => classificationLinks.id, { onDelete: 'cascade' }),
    group: text('group', { enum: CLASSIFICATION_GROUPS }).notNull(),
    code: text('code').notNull(),
    /** Normalised: number as decimal string, logical "true"/"false", enum as EV code, range as "min..max". */
    value: text('value').notNull(),
    unit: text('unit'),
    /** The value is the file's text, not normalised: the feature is not in the reference data or the value did not parse for it (migration 0013). */
    unverified: integer('unverified', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.linkId, t.group, t.code] }),
    /** The values kept as text, which the verification job re-checks (migration 0029). */
    index('classification_link_features_unverified_idx').on(t.linkId).where(sql`${t.unverified} = 1`),
  ],
);

// ---------------------------------------------------------------- media

export const media = sqliteTable(
  'media',
  {
    id: text('id').primaryKey(),
    /** A product, category or catalog: the tenant is the element's (no company_id since migration 0010). */
    elementId: text('element_id').notNull(),
    /** BMEcat MIME_PURPOSE: normal, thumbnail, detail, data_sheet, logo, others. */
    purpose: text('purpose').notNull().default('normal'),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** Object key in the FILES bucket. */
    storageKey: text('storage_key').notNull(),
    /** Hex SHA-256 of the bytes: computed at upload; older rows are filled in by the sync (src/sync/media-hash.ts). */
    sha256: text('sha256'),
    description: text('description'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    /** A link (migration 0017): the absolute http(s) URL of a file kept elsewhere; no object is stored. */
    url: text('url'),
    /** ETIM guideline MIME code of a link (MD01 ...), from UDX.EDXF.MIME_CODE. */
    mimeCode: text('mime_code'),
    /** BMEcat MIME_ALT. */
    alt: text('alt'),
    /** An xChange attachment's type, languages and dates beyond the purpose as JSON (kernel/media-attachment.ts, migration 0082); null when none. */
    attachment: text('attachment'),
  },
  // WITHOUT ROWID since migration 0008 (drizzle does not model it; the table is keyed by its id).
  (t) => [index('media_element_idx').on(t.elementId, t.sortOrder)],
);

// ---------------------------------------------------------------- jobs and export templates

export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: text('department_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind').notNull(),
    state: text('state', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    /** The validated request that started the job (JSON). */
    params: text('params', { mode: 'json' }).notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** Where a resumable job continues (JSON, job-kind specific), e.g. keyset cursor and multipart state. */
    checkpoint: text('checkpoint', { mode: 'json' }),
    error: text('error'),
    resultKey: text('result_key'),
    resultFileName: text('result_file_name'),
    resultContentType: text('result_content_type'),
    resultSize: integer('result_size'),
    createdAt: createdAt(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    /** What a finished job had to adjust (JSON string array), e.g. an export truncating text to a schema limit. */
    warnings: text('warnings', { mode: 'json' }).$type<string[]>(),
    /** Last sign of life of a queued or running job (database clock); stale means its worker died (docs/reliability.md). */
    heartbeatAt: text('heartbeat_at'),
    /** Restarts by the recovery sweep since the checkpoint last advanced; the job fails when it reaches MAX_JOB_ATTEMPTS. */
    attempts: integer('attempts').notNull().default(0),
    /** The outcome of a job that reports instead of writing a file (mass edit), shown as result.report. */
    report: text('report', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** Counts a finished job reports (JSON), e.g. an import's created / updated / unchanged / rejected. */
    summary: text('summary', { mode: 'json' }).$type<Record<string, number>>(),
  },
  (t) => [index('jobs_company_idx').on(t.companyId, t.createdAt), index('jobs_active_idx').on(t.state, t.heartbeatAt)],
);

export const exportTemplates = sqliteTable(
  'export_templates',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    exportType: text('export_type').notNull().default('BMEcat'),
    language: text('language').notNull().default('deu'),
    /** JSON options: classification systems, price type, namespace, category subset, ... */
    options: text('options', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('export_templates_company_idx').on(t.companyId)],
);

// ---------------------------------------------------------------- public contact form

export const contactMessages = sqliteTable('contact_messages', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company'),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- change history (docs/history.md)

/**
 * One version of one element: who changed it, through what, when (the database clock) and the
 * field-level diff as compact JSON `[[path, before, after], ...]`. Written in the same batch as
 * the change it describes. `id` is the UUIDv7 versionId, so id order is change order.
 */
export const historyVersions = sqliteTable(
  'history_versions',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    elementId: text('element_id').notNull(),
    /** catalog, category, product, variant or template. */
    elementKind: text('element_kind').notNull(),
    /** create, update, delete or restore. */
    action: text('action').notNull(),
    userId: text('user_id').notNull(),
    surface: text('surface', { enum: ['web', 'agent', 'mcp', 'job'] }).notNull(),
    clientName: text('client_name'),
    jobId: text('job_id'),
    changes: text('changes').notNull(),
    at: text('at').notNull().default(dbNow),
    /**
     * A product's or variant's catalog (migration 0088); NULL for catalogs, categories,
     * templates and rows written before. Judges a gone product for a scoped member (docs/teams.md).
     */
    catalogId: text('catalog_id'),
    /** A product's or variant's master: its own id for a master, the parent for a variant (migration 0088). */
    masterId: text('master_id'),
  },
  (t) => [
    index('history_element_idx').on(t.companyId, t.elementId, t.id),
    index('history_company_at_idx').on(t.companyId, t.at),
  ],
);

// ---------------------------------------------------------------- sign-in throttle

/**
 * Sign-in attempts per (email, client IP) pair, known email or not (docs/reliability.md): after
 * a few free tries each further one must wait a growing delay. Counted by one atomic upsert.
 */
export const signInThrottle = sqliteTable(
  'sign_in_throttle',
  {
    /** SHA-256 of the normalised email and the client IP: no addresses stored in clear. */
    key: text('key').primaryKey(),
    tries: integer('tries').notNull(),
    /** Earliest moment (database clock) the next try is checked at all. */
    nextAllowedAt: text('next_allowed_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('sign_in_throttle_updated_idx').on(t.updatedAt)],
);

// ---------------------------------------------------------------- sync connections (docs/sync.md)

/** Options of a sync connection (API contract `options`). */
export interface SyncConnectionOptions {
  missing: 'deactivate' | 'ignore';
  maxDeactivationPercent: number;
  schedule: 'hourly' | 'daily' | null;
  defaultTaxCode?: string;
  /** The channel the connection feeds; with `onlyComplete` a run sends only masters complete for it. */
  channelId?: string;
  onlyComplete?: boolean;
}

/**
 * The shop a connection's connector writes into (docs/shops.md, "The PIM side"): sent as
 * PUT /target before each run. `mapping` is what the admin chose; the kind's defaults fill the
 * rest when it is read or sent. The credentials are a column of their own, encrypted.
 */
export interface SyncConnectionShop {
  kind: TargetKind;
  /** Empty for the reference store, which needs no URL. */
  url: string;
  mapping: TargetMappingInput;
}

/**
 * One catalog kept in step with one shop connector. The shared secret is stored AES-GCM
 * encrypted (src/sync/secret-box.ts); the connector's mappings are cached here for about an hour.
 */
export const syncConnections = sqliteTable(
  'sync_connections',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    departmentId: text('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    connectorUrl: text('connector_url').notNull(),
    keyId: text('key_id').notNull(),
    /** `v1.<iv base64url>.<ciphertext base64url>`; never returned by any API. */
    secretCiphertext: text('secret_ciphertext').notNull(),
    options: text('options', { mode: 'json' }).notNull().$type<SyncConnectionOptions>(),
    /** When the Cron Trigger starts the next scheduled run (null: no schedule). */
    nextRunAt: text('next_run_at'),
    /** Who scheduled runs act as (the admin who last saved the connection). */
    runAsUserId: text('run_as_user_id').notNull(),
    /** Origin of the PIM as last seen by a manual run: base of the signed media URLs of scheduled runs. */
    publicBaseUrl: text('public_base_url'),
    mappings: text('mappings', { mode: 'json' }),
    mappingsEtag: text('mappings_etag'),
    mappingsFetchedAt: text('mappings_fetched_at'),
    /** X-Max-Batch-Records of the cached mappings' answer: records per POST /upsert this shop takes (null: the protocol's). */
    mappingsMaxBatchRecords: integer('mappings_max_batch_records'),
    /** The shop of this connection, or null: the connector's target is left as it is. */
    shop: text('shop', { mode: 'json' }).$type<SyncConnectionShop>(),
    /** The shop's credentials as JSON, sealed like the secret (secret-box.ts); never returned by any API. */
    shopCredentialsCiphertext: text('shop_credentials_ciphertext'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sync_connections_company_name_uq').on(t.companyId, t.name),
    index('sync_connections_due_idx').on(t.nextRunAt),
  ],
);

/**
 * A connector key whose target must go back to the reference store (DELETE /target): its
 * connection's shop was removed, or the connection deleted or moved to another connector URL
 * or key. Recorded with that write, removed once the connector confirmed the reset or the key
 * got a shop again; sent before the next run of that key (src/sync/target-reset.ts).
 */
export const syncTargetResets = sqliteTable(
  'sync_target_resets',
  {
    /** Changes with every new reset of the key, so a run removes only the reset it sent. */
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    connectorUrl: text('connector_url').notNull(),
    keyId: text('key_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sync_target_resets_key_uq').on(t.companyId, t.connectorUrl, t.keyId)],
);

/** One sync run (a job of kind `sync`) of a connection, with its report once finished. */
export const syncRuns = sqliteTable(
  'sync_runs',
  {
    jobId: text('job_id').primaryKey(),
    connectionId: text('connection_id').notNull(),
    companyId: text('company_id').notNull(),
    dryRun: integer('dry_run', { mode: 'boolean' }).notNull(),
    report: text('report', { mode: 'json' }),
    createdAt: createdAt(),
  },
  (t) => [index('sync_runs_connection_idx').on(t.connectionId, t.jobId)],
);

/**
 * Rows a run has to remember outside its checkpoint, so memory stays bounded: quarantined
 * records (with the reason) and SKUs to deactivate once the whole inventory has been read.
 */
export const syncRunItems = sqliteTable(
  'sync_run_items',
  {
    jobId: text('job_id').notNull(),
    /** `change`: a dry run's diff of one product against a real shop, `reason` its `{op, fields}` as JSON. */
    kind: text('kind', { enum: ['quarantine', 'deactivate', 'change'] }).notNull(),
    sku: text('sku').notNull(),
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.kind, t.sku] })],
);

// ---------------------------------------------------------------- imports (docs/import.md)

/** A file uploaded for import, kept in the FILES bucket under `storageKey` until deleted. */
export const importFiles = sqliteTable(
  'import_files',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Open R2 multipart upload (CreateUpload); null once complete or for a single-request upload. */
    uploadId: text('upload_id'),
    /** Parts uploaded so far (JSON array of R2UploadedPart), for CompleteUpload. */
    parts: text('parts', { mode: 'json' }).$type<{ partNumber: number; etag: string }[]>(),
    state: text('state', { enum: ['uploading', 'complete'] }).notNull(),
    size: integer('size').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('import_files_company_idx').on(t.companyId, t.id)],
);

/** CATALOG_GROUP_SYSTEM of a BMEcat file being imported: staged by the validation pass, resolved to categories by the write pass. */
export const importGroups = sqliteTable(
  'import_groups',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    groupId: text('group_id').notNull(),
    /** Order in the file: categories are created in file order, so their ids keep it. */
    position: integer('position').notNull(),
    parentGroupId: text('parent_group_id'),
    name: text('name').notNull(),
    description: text('description'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** The file's root group (the catalog itself). */
    isRoot: integer('is_root', { mode: 'boolean' }).notNull().default(false),
    /** Set once the group is matched to or created as a category. */
    categoryId: text('category_id'),
    /** The group's MIME_INFO links as JSON (migration 0021), created as links of its category. */
    links: text('links'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.groupId] })],
);

/** Products an import rejected, keyed by their position in the file so a retried slice writes each once. */
export const importRejections = sqliteTable(
  'import_rejections',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    sku: text('sku'),
    /** "line 120" (CSV) or an XML path with its line, e.g. "PRODUCT[17] (line 412)". */
    location: text('location').notNull(),
    reason: text('reason').notNull(),
    /** What kind of reason (import-report.ts, REASONS): the report groups by it (migration 0013). */
    code: text('code').notNull().default('other'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);

/** Warnings of a running import: a product kept with a field changed by a documented rule (migration 0013). */
export const importWarnings = sqliteTable(
  'import_warnings',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** The warning's number within its record. */
    n: integer('n').notNull(),
    sku: text('sku'),
    location: text('location').notNull(),
    code: text('code').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq, t.n] })],
);

/** SKUs a running import has read, with where (a SKU twice in one file rejects the second product; migration 0013). */
export const importSkus = sqliteTable(
  'import_skus',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    seq: integer('seq').notNull(),
    location: text('location').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.sku] })],
);

/**
 * PRODUCT_TO_CATALOGGROUP_MAP of a BMEcat file being imported, staged by the validation pass:
 * the write pass gives each master of a batch the groups the map names for it (one query per
 * batch), so a product's placements are written with the product (docs/import.md).
 */
export const importPlacements = sqliteTable(
  'import_placements',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    groupId: text('group_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.sku, t.groupId] })],
);

/** Products a dry run counted as created, so later variants and map entries find them as a real run would. */
export const importDryProducts = sqliteTable(
  'import_dry_products',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    isVariant: integer('is_variant', { mode: 'boolean' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.sku] })],
);

// ---------------------------------------------------------------- classification releases (docs/classification-releases.md)

/**
 * One release of a classification system (ETIM-9.0, PROFICLASS-7.0, ...). Shared by every
 * company. Readers see only `loaded` releases; a load writes under a new id in `loading` and
 * flips it at the end (migration 0014; partial unique indexes: one loaded and one loading per
 * system and version). The other release tables are WITHOUT ROWID (drizzle cannot declare it)
 * and the FTS5 table `release_class_search` exists only in the migration.
 */
export const classificationReleases = sqliteTable('classification_releases', {
  id: integer('id').primaryKey(),
  system: text('system').notNull(),
  version: text('version').notNull(),
  status: text('status', { enum: ['loading', 'loaded', 'replaced', 'failed'] }).notNull(),
  format: text('format').notNull(),
  languages: text('languages', { mode: 'json' }).$type<string[]>(),
  counts: text('counts', { mode: 'json' }).$type<Record<string, number>>(),
  jobId: text('job_id'),
  error: text('error'),
  createdAt: createdAt(),
  loadedAt: text('loaded_at'),
});

const releaseId = () => integer('release_id').notNull();

export const releaseClasses = sqliteTable(
  'release_classes',
  {
    releaseId: releaseId(),
    code: text('code').notNull(),
    parentCode: text('parent_code'),
    level: integer('level'),
    /** The class's IRDI where the release has one (eCl@ss IrdiCC, which its relation files reference). */
    irdi: text('irdi'),
    deprecated: integer('deprecated', { mode: 'boolean' }).notNull().default(false),
    successor: text('successor'),
    /** The class's ETIM group (EG...; its names are `release_names` of kind G), migration 0042. */
    groupCode: text('group_code'),
    /** The class's own version number where the release gives one (ETIM IXF Version), migration 0042. */
    version: integer('version'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.code] })],
);

/** Types as ETIM writes them: A alphanumeric, N numeric, R range, L logical. */
export const releaseFeatures = sqliteTable(
  'release_features',
  {
    releaseId: releaseId(),
    code: text('code').notNull(),
    /** Null only while loading an ETIM release whose feature file has no type (ETIM gives it per class). */
    type: text('type', { enum: ['A', 'N', 'R', 'L'] }),
    /** The unit where the release gives it per feature (eCl@ss); ETIM and proficl@ss give it per class. */
    unitCode: text('unit_code'),
    deprecated: integer('deprecated', { mode: 'boolean' }).notNull().default(false),
    successor: text('successor'),
    /** The feature's value range where a release gives one (migration 0039; no loaded format does yet). */
    minValue: real('min_value'),
    maxValue: real('max_value'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.code] })],
);

export const releaseValues = sqliteTable(
  'release_values',
  {
    releaseId: releaseId(),
    code: text('code').notNull(),
    deprecated: integer('deprecated', { mode: 'boolean' }).notNull().default(false),
    successor: text('successor'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.code] })],
);

export const releaseUnits = sqliteTable(
  'release_units',
  {
    releaseId: releaseId(),
    code: text('code').notNull(),
    unece: text('unece'),
    symbol: text('symbol'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.code] })],
);

/**
 * Names per language; kind C class, F feature, V value, U unit, K keyword (proficl@ss Schlagworte,
 * turned into synonyms), G group (ETIM IXF groups, migration 0042).
 */
export const releaseNames = sqliteTable(
  'release_names',
  {
    releaseId: releaseId(),
    kind: text('kind', { enum: ['C', 'F', 'V', 'U', 'K', 'G'] }).notNull(),
    code: text('code').notNull(),
    lang: text('lang').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.kind, t.code, t.lang] })],
);

export const releaseSynonyms = sqliteTable(
  'release_synonyms',
  {
    releaseId: releaseId(),
    classCode: text('class_code').notNull(),
    lang: text('lang').notNull(),
    synonym: text('synonym').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.classCode, t.lang, t.synonym] })],
);

export const releaseClassFeatures = sqliteTable(
  'release_class_features',
  {
    releaseId: releaseId(),
    classCode: text('class_code').notNull(),
    featureCode: text('feature_code').notNull(),
    sort: integer('sort').notNull(),
    /** The feature's type in this class where the release gives it per class (ETIM FEATURETYPE). */
    type: text('type', { enum: ['A', 'N', 'R', 'L'] }),
    unitCode: text('unit_code'),
    mandatory: integer('mandatory', { mode: 'boolean' }),
    /** The row's number in the source file, which the class-feature-value file references. */
    ref: integer('ref'),
    /** The feature's value range in this class (migration 0039), over the feature's own. */
    minValue: real('min_value'),
    maxValue: real('max_value'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.classCode, t.featureCode] })],
);

export const releaseClassFeatureValues = sqliteTable(
  'release_class_feature_values',
  {
    releaseId: releaseId(),
    classCode: text('class_code').notNull(),
    featureCode: text('feature_code').notNull(),
    valueCode: text('value_code').notNull(),
    sort: integer('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.classCode, t.featureCode, t.valueCode] })],
);

/**
 * How many of a company's products have a class of each release (`ETIM-9.0`), for the release
 * list (migration 0042). Kept by triggers on `classification_link_classes` and
 * `classification_links` in the same transaction as every classification write; WITHOUT ROWID.
 */
export const releaseProductCounts = sqliteTable(
  'release_product_counts',
  {
    companyId: text('company_id').notNull(),
    release: text('release').notNull(),
    products: integer('products').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.release] })],
);

// ---------------------------------------------------------------- product references

/**
 * Typed references from a product to a target SKU of the same catalog (BMEcat PRODUCT_REFERENCE,
 * migration 0016, docs/data-model.md "Product references"). The SKU is the reference as written;
 * `targetProductId` is the product it names now, null while that SKU is not in the catalog
 * (pending). Deleting the target sets it null again (the reference waits, it is not lost).
 * No company_id: the tenant is the source product's, and every read reaches these rows through
 * a tenant-checked product. WITHOUT ROWID (drizzle does not model it).
 */
export const productReferences = sqliteTable(
  'product_references',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    catalogId: text('catalog_id').notNull(),
    type: text('type').notNull(),
    targetSku: text('target_sku').notNull(),
    /** What `target_sku` holds: the target's SKU, or its manufacturer number ('mpn', migration 0070). */
    targetKind: text('target_kind', { enum: ['sku', 'mpn'] })
      .notNull()
      .default('sku'),
    targetProductId: text('target_product_id').references(() => products.id, { onDelete: 'set null' }),
    quantity: integer('quantity'),
    /** REFERENCE_DESCR (migration 0021). */
    descr: text('descr'),
    /** CATALOG_ID / CATALOG_VERSION of the catalog the target is in, when the file named one. */
    targetCatalog: text('target_catalog'),
    targetCatalogVersion: text('target_catalog_version'),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.position] }),
    index('product_references_target_idx').on(t.targetProductId).where(sql`target_product_id IS NOT NULL`),
    index('product_references_pending_idx').on(t.catalogId, t.targetSku).where(sql`target_product_id IS NULL`),
    index('product_references_mpn_idx').on(t.catalogId, t.targetSku).where(sql`target_kind = 'mpn'`),
  ],
);
/**
 * A product's USER_DEFINED_EXTENSIONS content as read (migration 0017): verbatim XML text the
 * BMEcat exports write back (template option dropUdx leaves it out). WITHOUT ROWID.
 */
export const productUdx = sqliteTable('product_udx', {
  productId: text('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  xml: text('xml').notNull(),
});

// ---------------------------------------------------------------- feature blocks of other systems

/**
 * A PRODUCT_FEATURES block of a feature system the classification model does not take
 * (UNSPSC, nexMart, `udf_*`, a supplier's own, eCl@ss Advanced): kept whole and in order, and
 * written back on export (src/catalog/feature-blocks/). `features` is the JSON list of the
 * block's features (model/feature-block-types.ts). WITHOUT ROWID (migration 0018).
 */
export const productFeatureBlocks = sqliteTable(
  'product_feature_blocks',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** REFERENCE_FEATURE_SYSTEM_NAME as written, e.g. `UNSPSC`, `udf_CMP-1.0`, `nexMart`. */
    system: text('system').notNull(),
    groupId: text('group_id'),
    groupId2: text('group_id2'),
    groupName: text('group_name'),
    features: text('features').notNull(),
    /** The `type` attribute of REFERENCE_FEATURE_GROUP_ID2 (`flat`, `hierarchy`), migration 0050. */
    groupId2Type: text('group_id2_type'),
    /** The block's FEATURE_GROUPs as JSON (eCl@ss Advanced trees, migration 0050); null when it has none. */
    featureGroups: text('feature_groups'),
    /** An ETIM modelling class block's version and BIM status as JSON (migration 0081); null for other blocks. */
    modelling: text('modelling'),
  },
  (t) => [primaryKey({ columns: [t.productId, t.position] })],
);

/**
 * The price types (`list` = `priceTypes`) and feature-block systems (`featureSystems`) a
 * catalog's products use, with the number of rows using each (`uses`): kept in step by the
 * triggers of migration 0065 on product_prices, product_feature_blocks and products, so
 * Catalog/GetCodesInUse pages by primary key instead of reading every product. No company_id:
 * every read reaches it through a tenant-checked catalog. WITHOUT ROWID.
 */
export const catalogCodesInUse = sqliteTable(
  'catalog_codes_in_use',
  {
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    list: text('list', { enum: ['priceTypes', 'featureSystems'] }).notNull(),
    code: text('code').notNull(),
    uses: integer('uses').notNull(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.list, t.code] })],
);

/**
 * A catalog's price formulas (migration 0089, docs/data-model.md "Prices"): each FORMULA of a
 * BMEcat 2005 file's FORMULAS, keyed by its FORMULA_ID, as the JSON tree of the element
 * (src/model/catalog-formulas.ts). `position` orders the export's FORMULAS. WITHOUT ROWID.
 */
export const catalogFormulas = sqliteTable(
  'catalog_formulas',
  {
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    formulaId: text('formula_id').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    formula: text('formula').notNull(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.formulaId] })],
);

// ---------------------------------------------------------------- translations (docs/languages.md)

/**
 * One field of one element in one language other than its catalog's default (which the
 * element's own columns hold; fields without a column keep every language here). `field` is the
 * API's name: `name`, `description`, `keywords`, `values.<attribute code>`,
 * `details.<GROUP>.<feature code>`. Rows go with their element (delete triggers, migration
 * 0019). No company_id: every read reaches them through a tenant-checked element. WITHOUT ROWID.
 */
export const translations = sqliteTable(
  'translations',
  {
    elementId: text('element_id').notNull(),
    field: text('field').notNull(),
    lang: text('lang').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.elementId, t.field, t.lang] })],
);
/**
 * Search heads (migration 0022, src/catalog/search-heads.ts): per catalog and FTS phrase, the
 * bound of the head, and the masters within it (name order) whose own document matches the
 * phrase. Kept by the FTS triggers on `products`. Both WITHOUT ROWID (drizzle does not model it).
 */
export const searchHeadBounds = sqliteTable(
  'search_head_bounds',
  {
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    phrase: text('phrase').notNull(),
    /** COLLATE NOCASE in SQL (the name order's collation). */
    name: text('name').notNull(),
    productId: text('product_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.phrase] })],
);

export const searchHeads = sqliteTable(
  'search_heads',
  {
    catalogId: text('catalog_id').notNull(),
    phrase: text('phrase').notNull(),
    /** COLLATE NOCASE in SQL (the name order's collation). */
    name: text('name').notNull(),
    productId: text('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.phrase, t.name, t.productId] })],
);

/**
 * Links naming each class code, across companies (migration 0023): a planning aid of the product
 * list's class filter, kept by triggers on classification_link_classes. WITHOUT ROWID.
 */
export const classificationClassUse = sqliteTable('classification_class_use', {
  code: text('code').primaryKey(),
  links: integer('links').notNull(),
});

/**
 * A master product whose name or description has no translation in one of its catalog's other
 * languages (migration 0025): kept by triggers, read by the grid filter `missingTranslation`.
 */
export const translationGaps = sqliteTable(
  'translation_gaps',
  {
    catalogId: text('catalog_id').notNull(),
    lang: text('lang').notNull(),
    productId: text('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.lang, t.productId] })],
);

// ---------------------------------------------------------------- channels and completeness (docs/completeness.md)

/**
 * A named output of a company (a shop, a data pool, a print catalog) and what it requires per
 * language (migration 0026). `id` is the integer key the rules and scores carry; `channelId` the
 * public id. `requirements` is the list as the API took it; `channel_rules` is its expansion.
 */
export const channels = sqliteTable(
  'channels',
  {
    /** AUTOINCREMENT: a deleted channel's key is never given again while its scores are being removed. */
    id: integer('id').primaryKey({ autoIncrement: true }),
    channelId: text('channel_id').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    languages: text('languages', { mode: 'json' }).notNull().$type<string[]>(),
    requirements: text('requirements', { mode: 'json' }).notNull().$type<Record<string, unknown>[]>(),
    /** Review before publishing (migration 0058, docs/review.md): exports and syncs of the channel take only approved masters. */
    reviewEnabled: integer('review_enabled', { mode: 'boolean' }).notNull().default(false),
    /** Which changes send an approved master back to review: `{kind: any}` or `{kind: fields, fields?, languages?}`; null while off. */
    reviewRule: text('review_rule', { mode: 'json' }).$type<ReviewRuleRow>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('channels_channel_id_uq').on(t.channelId),
    uniqueIndex('channels_company_name_uq').on(t.companyId, t.name),
  ],
);

/** A channel's review rule as stored (docs/review.md): the trigger `review_back_on_change` reads it with json_extract. */
export type ReviewRuleRow = { kind: 'any' } | { kind: 'fields'; fields?: string[]; languages?: string[] };

/** The review states a master can be in for a channel (no row: draft). */
export const REVIEW_STATES = ['draft', 'in_review', 'approved'] as const;

/**
 * A master's review state for one channel (migration 0058, docs/review.md). Moved back from
 * `approved` to `in_review` by the trigger `review_back_on_change` in the transaction of any
 * write whose history version matches the channel's rule. WITHOUT ROWID.
 */
export const reviewStates = sqliteTable(
  'review_states',
  {
    companyId: text('company_id').notNull(),
    channelKey: integer('channel_key').notNull(),
    productId: text('product_id').notNull(),
    state: text('state', { enum: REVIEW_STATES }).notNull().default('draft'),
    submittedBy: text('submitted_by'),
    submittedAt: text('submitted_at'),
    approvedBy: text('approved_by'),
    approvedAt: text('approved_at'),
    /** The newest history version of the master and its variants when approved: the base of the inbox's change. */
    approvedVersion: text('approved_version'),
    rejectedBy: text('rejected_by'),
    rejectedAt: text('rejected_at'),
    rejectionComment: text('rejection_comment'),
    /** The history version whose change sent the approved master back to review. */
    returnedVersion: text('returned_version'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.channelKey, t.productId] }),
    index('review_states_inbox_idx').on(t.channelKey, t.state, t.productId),
    index('review_states_product_idx').on(t.productId),
  ],
);

/** One requirement of a channel in one language: what the view `completeness_checks` evaluates. WITHOUT ROWID. */
export const channelRules = sqliteTable(
  'channel_rules',
  {
    companyId: text('company_id').notNull(),
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    position: integer('position').notNull(),
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    ref: text('ref'),
    amount: integer('amount').notNull().default(1),
    release: text('release'),
    share: text('share'),
    label: text('label').notNull(),
    /** Only products placed in this category or below it (migration 0028); null: every product. */
    categoryId: text('category_id'),
    /** The GLOB pattern of a `pattern` rule (migration 0028). */
    pattern: text('pattern'),
    /** The bounds and unit of a `range` rule (migration 0039). */
    minValue: real('min_value'),
    maxValue: real('max_value'),
    unit: text('unit'),
    /** 1 when an earlier rule of the channel and language has the same label: the view counts it once (migration 0039). */
    shared: integer('shared'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.channelKey, t.lang, t.position] })],
);

/**
 * One master product (by its rowid) in one channel and language: score 0-100 and the JSON list
 * of missing labels (null when complete). Kept by triggers (migration 0026). WITHOUT ROWID.
 */
export const completeness = sqliteTable(
  'completeness',
  {
    productKey: integer('product_key').notNull(),
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    score: integer('score').notNull(),
    missing: text('missing'),
  },
  (t) => [
    primaryKey({ columns: [t.productKey, t.channelKey, t.lang] }),
    index('completeness_channel_idx').on(t.channelKey, t.lang, t.score),
  ],
);

/**
 * One variant (by its rowid) in one channel and language, shaped as `completeness` (migration
 * 0028): kept apart so counters, the grid filter and onlyComplete exports keep meaning masters.
 */
export const variantCompleteness = sqliteTable(
  'variant_completeness',
  {
    productKey: integer('product_key').notNull(),
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    score: integer('score').notNull(),
    missing: text('missing'),
  },
  (t) => [
    primaryKey({ columns: [t.productKey, t.channelKey, t.lang] }),
    index('variant_completeness_channel_idx').on(t.channelKey, t.lang, t.score),
  ],
);

/**
 * A row here (only ever inside one batch: src/db/score-refresh.ts) switches the completeness
 * triggers to marking products in `completeness_dirty` instead of rescoring each change (migration 0028).
 */
export const completenessDefer = sqliteTable('completeness_defer', { id: integer('id').primaryKey() });

/**
 * Scratch rows of one recompute page's batch (migration 0061, src/completeness/completeness-events.ts):
 * the (master or variant, channel) pairs scored before the rescore and whether they were incomplete. Written
 * and emptied in the same batch.
 */
export const completenessTransitionBefore = sqliteTable(
  'completeness_transition_before',
  {
    productKey: integer('product_key').notNull(),
    channelKey: integer('channel_key').notNull(),
    incomplete: integer('incomplete', { mode: 'boolean' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.productKey, t.channelKey] })],
);

/**
 * A row here (only ever inside one batch: a recompute page, the removal of a deleted channel's
 * scores) switches the completeness webhook row triggers off (migrations 0061, 0064): the page compares
 * before and after set-based instead (src/completeness/completeness-events.ts).
 */
export const completenessEventsDefer = sqliteTable('completeness_events_defer', { id: integer('id').primaryKey() });

/**
 * The state before the current write of each (product, channel) pair whose score rows it touched
 * (`incomplete` NULL: no rows before), noted by the row triggers of migration 0069 and compared
 * with the state after at the write's end (completeness.reached / .lost). Empty between writes.
 */
export const completenessTransitionPending = sqliteTable(
  'completeness_transition_pending',
  {
    productKey: integer('product_key').notNull(),
    channelKey: integer('channel_key').notNull(),
    variant: integer('variant').notNull(),
    incomplete: integer('incomplete'),
  },
  (t) => [primaryKey({ columns: [t.productKey, t.channelKey, t.variant] })],
);

/** A row here (only inside one batch: src/db/completeness-flush.ts) holds the flush until the batch's end. */
export const completenessEventsHold = sqliteTable('completeness_events_hold', { id: integer('id').primaryKey() });

/** Inserting a row here ends a write: its trigger (migration 0069) turns the pending pairs into events. */
export const completenessEventsFlush = sqliteTable('completeness_events_flush', { id: integer('id').primaryKey() });

/** Products (by rowid) a deferring batch changed, rescored once at its end (migration 0028). */
export const completenessDirty = sqliteTable('completeness_dirty', { productKey: integer('product_key').primaryKey() });

/**
 * A row here (only ever inside one recompute page's batch: src/db/score-counts.ts) switches the
 * counter triggers on `completeness` and `variant_completeness` off; the page then maintains
 * `completeness_counts` and `completeness_daily` in bulk (migration 0045).
 */
export const completenessCountsDefer = sqliteTable('completeness_counts_defer', { id: integer('id').primaryKey() });

/** Counts per channel and language kept by triggers on `completeness` (migration 0026): '' scored, '#complete', '#score' (sum), or a missing label. */
export const completenessCounts = sqliteTable(
  'completeness_counts',
  {
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    item: text('item').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelKey, t.lang, t.item] })],
);

/**
 * Where a company's tenant rows live (issue 22, docs/scaling.md section 5; migration 0033). Read
 * only in the directory database; no row = cell-1. `moving` pauses the company's writes while the
 * move job copies it to another cell.
 */
export const companyCells = sqliteTable(
  'company_cells',
  {
    companyId: text('company_id').primaryKey(),
    cell: text('cell').notNull(),
    state: text('state', { enum: ['active', 'moving'] })
      .notNull()
      .default('active'),
    updatedAt: updatedAt(),
  },
  (t) => [index('company_cells_cell_idx').on(t.cell, t.companyId)],
);

/** One channel, language and UTC day: the counters' last state that day (migration 0027), kept by the counter triggers. WITHOUT ROWID. */
export const completenessDaily = sqliteTable(
  'completeness_daily',
  {
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    day: text('day').notNull(),
    scored: integer('scored').notNull(),
    complete: integer('complete').notNull(),
    scoreSum: integer('score_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelKey, t.lang, t.day] })],
);

/**
 * One scope set (migration 0083's `scope_sets`, kept in SQL only), channel, language and UTC day:
 * the set's counters' last state that day (migration 0090), kept by triggers on
 * `scope_set_completeness`; the trend of a category-scoped member. WITHOUT ROWID, deleted with its set.
 */
export const scopeSetCompletenessDaily = sqliteTable(
  'scope_set_completeness_daily',
  {
    setId: integer('set_id').notNull(),
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    day: text('day').notNull(),
    scored: integer('scored').notNull(),
    complete: integer('complete').notNull(),
    scoreSum: integer('score_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.channelKey, t.lang, t.day] })],
);

/**
 * One distinct scope naming catalogs (its catalogs and subtree roots, sorted: `catalogScopeKey`)
 * and the UTC day it was last counted (migration 0094): the parent of its daily rows, deleted by
 * the cron when no membership has the scope any more. WITHOUT ROWID.
 */
export const catalogScopes = sqliteTable(
  'catalog_scopes',
  {
    companyId: text('company_id').notNull(),
    key: text('key').notNull(),
    countedOn: text('counted_on').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
);

/**
 * One scope naming catalogs, channel, language and UTC day: its products' figures as counted that
 * day (migration 0094, src/completeness/catalog-scope-days.ts), the trend of such a member's past
 * days. No trigger keeps them. WITHOUT ROWID, deleted with its scope (foreign key).
 */
export const catalogScopeCompletenessDaily = sqliteTable(
  'catalog_scope_completeness_daily',
  {
    companyId: text('company_id').notNull(),
    scopeKey: text('scope_key').notNull(),
    channelKey: integer('channel_key').notNull(),
    lang: text('lang').notNull(),
    day: text('day').notNull(),
    scored: integer('scored').notNull(),
    complete: integer('complete').notNull(),
    scoreSum: integer('score_sum').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.scopeKey, t.channelKey, t.lang, t.day] }),
    foreignKey({
      columns: [t.companyId, t.scopeKey],
      foreignColumns: [catalogScopes.companyId, catalogScopes.key],
    }).onDelete('cascade'),
  ],
);

// ---------------------------------------------------------------- changes feed and webhooks

/**
 * The commit-order sequence of the history (migration 0052, docs/changes-feed.md): one row per
 * `history_versions` row, written and deleted by triggers in the writer's own transaction.
 */
export const changeFeed = sqliteTable(
  'change_feed',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    companyId: text('company_id').notNull(),
    versionId: text('version_id').notNull(),
  },
  (t) => [
    index('change_feed_company_seq_idx').on(t.companyId, t.seq),
    uniqueIndex('change_feed_version_idx').on(t.versionId),
  ],
);

/** A company's webhook receiver (docs/webhooks.md). The secrets are sealed, never returned after create/rotate. */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** JSON array of subscribed event types; empty = every event. */
    eventTypes: text('event_types', { mode: 'json' }).notNull().$type<string[]>().default(sql`'[]'`),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** Why the service disabled it (deliveries failed for more than a day); null when enabled or disabled by hand. */
    disabledReason: text('disabled_reason'),
    disabledAt: text('disabled_at'),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId, t.id)],
);

/** One message to one endpoint and its attempts (the delivery log). */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The Standard Webhooks `webhook-id` (`msg_...`): the same on every attempt, so receivers de-duplicate. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** Deliveries with the same key go to one endpoint in order (the product id); null: no order. */
    orderKey: text('order_key'),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastAttemptAt: text('last_attempt_at'),
    /** JSON array of the last attempts (`DeliveryAttempt`), newest last, at most 10 (plain text: bulk inserts take no JSON-mode column). */
    log: text('log').notNull().default('[]'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.companyId, t.endpointId, t.id),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.orderKey, t.id).where(sql`status = 'pending'`),
    index('webhook_deliveries_due_idx').on(t.companyId, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

export interface DeliveryAttempt {
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
}

/**
 * Review and completeness events of every company (migration 0069): each is published in its own
 * transaction as a `change_feed` row (`version_id` = this id; GetChanges with `include=events`)
 * and, for a company with an enabled endpoint, a `webhook_outbox` row.
 */
export const domainEvents = sqliteTable(
  'domain_events',
  {
    id: text('id').primaryKey().default(sql`('evt_' || lower(hex(randomblob(16))))`),
    companyId: text('company_id').notNull(),
    eventType: text('event_type').notNull(),
    orderKey: text('order_key'),
    data: text('data').notNull(),
    at: text('at').notNull().default(dbNow),
  },
  // pruned with the history (migration 0073, history/retention.ts)
  (t) => [index('domain_events_company_at_idx').on(t.companyId, t.at)],
);

/** Events the history does not carry (jobs ended, release upgraded, test events), in commit order. */
export const webhookOutbox = sqliteTable(
  'webhook_outbox',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    companyId: text('company_id').notNull(),
    eventType: text('event_type').notNull(),
    orderKey: text('order_key'),
    data: text('data').notNull(),
    at: text('at').notNull().default(dbNow),
  },
  (t) => [index('webhook_outbox_company_seq_idx').on(t.companyId, t.seq)],
);

/** Where a company's dispatcher stands in the feed and the outbox (null: at the end when first read). */
export const webhookDispatch = sqliteTable('webhook_dispatch', {
  companyId: text('company_id').primaryKey(),
  feedSeq: integer('feed_seq'),
  outboxSeq: integer('outbox_seq'),
  updatedAt: updatedAt(),
});
