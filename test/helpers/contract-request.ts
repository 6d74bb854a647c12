/**
 * Requests built from the OpenAPI document (docs/reliability.md): every operation the document
 * lists gets a valid base request from its schemas, so a new operation is covered by the
 * contract suite and the bad-input sweep the moment it is documented. Only what a schema
 * cannot say (a value that must name something real) comes from OVERRIDES.
 */
export type Schema = Record<string, any>;

export interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  security: 'cookie' | 'bearer' | 'none';
  /** Answers without its credential too (Logout): the document offers an empty security alternative. */
  credentialOptional: boolean;
  /** JSON body schema, when the operation takes one. */
  body?: Schema;
  /** Query parameters (name → schema), and which are required. */
  query: Record<string, Schema>;
  requiredQuery: string[];
  /** Takes a raw, non-JSON body (Media/Upload, Import/Upload, Import/UploadPart). */
  rawBody: boolean;
  statuses: string[];
  /** The documented reasons for 403 (error-responses.ts), empty when the operation has none. */
  refusals: string;
}

/** Ids of one tenant's fixtures, by the field names operations use for them. */
export type Ids = Record<string, string>;

/**
 * Values a schema cannot invent, per operation (body or query fields). Keep this small: every
 * entry is something only a human knows (a real classification class, a field name).
 */
const OVERRIDES: Record<string, (ids: Ids) => Record<string, unknown>> = {
  'ai/CreateClassification': () => ({
    name: 'Contract',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000042' }],
  }),
  'Catalog/SetValue': () => ({ field: 'name', value: 'Contract value' }),
  'Catalog/AddAttribute': () => ({ code: `contract_${crypto.randomUUID().slice(0, 8)}`, type: 'text' }),
  'Catalog/UpdateAttribute': (ids) => ({
    attributeId: ids.attributeId,
    code: `contract_${crypto.randomUUID().slice(0, 8)}`,
    type: 'text',
  }),
  'Catalog/UpdateCatalog': (ids) => ({ catalogId: ids.catalogId }),
  'Catalog/UpdateCategory': (ids) => ({ categoryId: ids.categoryId }),
  'Catalog/UpdateProduct': (ids) => ({ productId: ids.productId }),
  'Catalog/MoveCategory': () => ({ parentId: null }),
  'Export/StartExport': () => ({ exportType: 'CSV' }),
  'Export/AddTemplate': () => ({ exportType: 'CSV' }),
  'Export/UpdateTemplate': (ids) => ({ templateId: ids.templateId, exportType: 'CSV' }),
  'Media/Upload': () => ({ fileName: 'contract.png' }),
  'Account/ChangePassword': () => ({ currentPassword: 'not-the-password', newPassword: 'contract-password-123' }),
  'Account/SetAiSwitch': () => ({ enabled: false }),
  // A sign-in name and an issuer that look real; the issuer's discovery is never reachable here (400).
  'Account/SsoStart': () => ({ slug: 'contract-sso' }),
  'Account/SetSsoSettings': () => ({
    slug: 'contract-sso',
    issuer: 'https://idp.contract.example',
    clientSecret: 'contract-secret',
  }),
  'contact/submit': () => ({ email: 'someone@contract.example' }),
  // Exactly one of productIds / filter: a rule between fields that the schema cannot say.
  'Catalog/StartMassEdit': (ids) => ({ productIds: [ids.productId], field: 'status', value: 'draft' }),
  'Sync/AddConnection': () => ({ connectorUrl: 'https://shop.contract.example/connector', keyId: 'contract-key' }),
  'Sync/UpdateConnection': () => ({ connectorUrl: 'https://shop.contract.example/connector', keyId: 'contract-key' }),
  // A price list: an empty one needs `clear: true` (a rule the schema cannot say).
  'Catalog/SetPrices': () => ({ prices: [{ type: 'net_list', amount: '1.00', currency: 'EUR' }] }),
  'Media/AddLink': () => ({ url: 'https://cdn.contract.example/a.png' }),
  'Media/UpdateLink': () => ({ url: 'https://cdn.contract.example/b.png' }),
  // Languages the company has enabled and a requirement naming a real field.
  'Catalog/AddChannel': () => ({
    name: `Channel ${crypto.randomUUID().slice(0, 8)}`,
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'name' }],
  }),
  'Catalog/UpdateChannel': (ids) => ({
    channelId: ids.channelId,
    name: `Channel ${crypto.randomUUID().slice(0, 8)}`,
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'name' }],
  }),
  // The agent's product writes take REST's bodies.
  'ai/SetValue': () => ({ field: 'name', value: 'Contract value' }),
  'ai/UpdateProduct': (ids) => ({ productId: ids.productId }),
};

/** The id a field names, if it names one (departmentId, catalogId, elementId → productId ...). */
export function idKeyOf(field: string): string | undefined {
  if (field === 'elementId') return 'productId';
  return /^[a-z]+Id$/.test(field) && field !== 'parentId' ? field : undefined;
}

/** The non-null branch of a `nullish` schema. */
export function concrete(schema: Schema): Schema {
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  return branches.find((b) => b.type !== 'null' && !(b.not && Object.keys(b.not).length === 0)) ?? branches[0]!;
}

/** A valid value for a schema, with fixture ids for id fields. */
export function sample(field: string, schema: Schema, ids: Ids): unknown {
  const s = concrete(schema);
  const idKey = idKeyOf(field);
  if (idKey && ids[idKey] && (s.format === 'uuid' || s.type === 'string')) return ids[idKey];
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (s.type) {
    case 'string':
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'email') return 'someone@contract.example';
      return 'Contract '.padEnd(Math.max(s.minLength ?? 1, 9), 'x').slice(0, s.maxLength ?? 100);
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return s.minItems ? [sample('', s.items ?? {}, ids)] : [];
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k: string) => [k, sample(k, s.properties?.[k] ?? {}, ids)]));
    default:
      return 'x';
  }
}

/** A value of the wrong JSON type for a schema. */
export function wrongType(schema: Schema): unknown {
  const s = concrete(schema);
  if (s.type === 'string' || s.enum) return 12345;
  if (s.type === 'integer' || s.type === 'number') return 'not a number';
  if (s.type === 'boolean') return 'yes';
  if (s.type === 'array') return { not: 'an array' };
  if (s.type === 'object') return ['not', 'an', 'object'];
  return undefined;
}

/** The valid base request of an operation for one tenant's ids. */
export function baseRequest(
  op: Operation,
  ids: Ids,
): { body?: Record<string, unknown>; query: Record<string, string> } {
  const override = OVERRIDES[op.name]?.(ids) ?? {};
  const query: Record<string, string> = {};
  for (const name of op.requiredQuery) query[name] = String(override[name] ?? sample(name, op.query[name]!, ids));
  if (op.rawBody) for (const [k, v] of Object.entries(override)) query[k] = String(v);
  if (!op.body) return { query };
  const body: Record<string, unknown> = {};
  for (const name of op.body.required ?? []) body[name] = sample(name, op.body.properties[name], ids);
  for (const [k, v] of Object.entries(override)) if (!op.rawBody) body[k] = v;
  return { body, query };
}

/** Every operation of the OpenAPI document. */
export function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(methods)) {
      const security = op.security?.[0]?.sessionCookie ? 'cookie' : op.security?.[0]?.oauth2 ? 'bearer' : 'none';
      const params: Schema[] = op.parameters ?? [];
      const content: Record<string, Schema> = op.requestBody?.content ?? {};
      ops.push({
        name: path.replace(/^\/api\//, ''),
        method: method.toUpperCase() as Operation['method'],
        path,
        security,
        credentialOptional: (op.security ?? []).some((s: Schema) => Object.keys(s).length === 0),
        body: content['application/json']?.schema,
        query: Object.fromEntries(params.map((p) => [p.name, p.schema])),
        requiredQuery: params.filter((p) => p.required).map((p) => p.name),
        rawBody: Object.keys(content).length > 0 && !content['application/json'],
        statuses: Object.keys(op.responses ?? {}),
        refusals: op.responses?.['403']?.description ?? '',
      });
    }
  }
  return ops;
}
