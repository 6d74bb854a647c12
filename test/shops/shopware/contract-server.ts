import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Contract, loadContract, pointed } from './openapi';

/**
 * A local Shopware 6 Admin API answering per the pinned OpenAPI document (./openapi.ts): the
 * token endpoint, `_action/sync` (every payload item validated against its entity schema and
 * applied to an in-memory state, an invalid request refused as a whole with Shopware's error
 * list and `/{operation}/{item}/{field}` pointers), the search endpoints with the filters the
 * adapter uses, the media upload by URL or with the file's bytes. Faults on demand: 429 with Retry-After, 5xx, a request
 * left unanswered (timeout), tokens expired early (401).
 */
type Row = Record<string, unknown>;
type Fault = { status: number; retryAfter?: string } | { hang: true };

export const SYSTEM_LANGUAGE = '2fbb5fe2e29a4d70aa5854ce7ce3e20b';
export const EUR = 'b7d2554b0ce847cd82f3ac9bd1c0dfca';
export const TAX_19 = 'a1'.repeat(16);
export const TAX_7 = 'a2'.repeat(16);
export const CLIENT = { clientId: 'SWIAPIM', clientSecret: 'contract-secret' };
/** Shopware's DAL StringField limit (not in the OpenAPI document). */
const MAX_STRING = 255;
const MAPPING_KEYS: Record<string, [string, string]> = {
  product_category: ['productId', 'categoryId'],
  product_property: ['productId', 'optionId'],
  product_option: ['productId', 'optionId'],
  product_translation: ['productId', 'languageId'],
};
const CHILDREN_OF_PRODUCT = [
  'product_price',
  'product_media',
  'product_configurator_setting',
  ...Object.keys(MAPPING_KEYS),
];

export interface Logged {
  method: string;
  path: string;
  body: unknown;
  status: number;
}

export class ShopwareContractServer {
  readonly state = new Map<string, Map<string, Row>>();
  readonly log: Logged[] = [];
  /** Sync payload items validated against the document, and the validations that failed. */
  validated = 0;
  readonly invalid: { pointer: string; message: string }[] = [];
  private tokens = new Map<string, number>();
  private faults: { path: string; fault: Fault }[] = [];
  private server: Server | null = null;
  private hanging: ServerResponse[] = [];
  readonly contract: Contract = loadContract();
  url = '';

  constructor() {
    const languages = [
      { id: SYSTEM_LANGUAGE, name: 'English', locale: 'en-GB' },
      { id: 'b1'.repeat(16), name: 'Deutsch', locale: 'de-DE' },
      { id: 'b2'.repeat(16), name: 'Français', locale: 'fr-FR' },
    ];
    for (const l of languages) {
      const localeId = `c${l.id.slice(1)}`;
      this.put('locale', { id: localeId, code: l.locale, name: l.name, territory: l.locale });
      this.put('language', { id: l.id, name: l.name, localeId });
    }
    this.put('currency', { id: EUR, isoCode: 'EUR', name: 'Euro', factor: 1, symbol: '€' });
    this.put('tax', { id: TAX_19, name: 'Standard rate', taxRate: 19 });
    this.put('tax', { id: TAX_7, name: 'Reduced rate', taxRate: 7 });
    this.put('unit', { id: 'd1'.repeat(16), shortCode: 'pcs', name: 'Piece' });
    this.put('product_manufacturer', { id: 'e1'.repeat(16), name: 'Lumen AG' });
    this.put('sales_channel', { id: 'f1'.repeat(16), name: 'Storefront' });
  }

  put(entity: string, row: Row): void {
    this.table(entity).set(this.key(entity, row), row);
  }

  table(entity: string): Map<string, Row> {
    let t = this.state.get(entity);
    if (!t) {
      t = new Map();
      this.state.set(entity, t);
    }
    return t;
  }

  rows(entity: string): Row[] {
    return [...this.table(entity).values()];
  }

  /** The next request whose path starts with `path` gets the fault instead of an answer. */
  failNext(path: string, fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push({ path, fault });
  }

  /** Every issued token is expired from now on (the next call answers 401). */
  expireTokens(): void {
    this.tokens.clear();
  }

  requests(path: string): Logged[] {
    return this.log.filter((l) => l.path.startsWith(path));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            errors: [{ status: '500', code: 'FRAMEWORK__INTERNAL', title: 'Internal', detail: String(err) }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/api/, '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    // A file's bytes (the media upload's `application/octet-stream` body) are logged by size and hash.
    const binary = req.headers['content-type'] === 'application/octet-stream';
    const text = binary ? '' : raw.toString('utf8');
    const body: unknown = binary
      ? { bytes: raw.length, sha256: createHash('sha256').update(raw).digest('hex') }
      : text
        ? JSON.parse(text)
        : null;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      this.log.push({ method: req.method ?? '', path: path + url.search, body, status });
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(payload === null ? '' : JSON.stringify(payload));
    };
    const faultAt = this.faults.findIndex((f) => path.startsWith(f.path));
    if (faultAt >= 0) {
      const { fault } = this.faults.splice(faultAt, 1)[0] as { fault: Fault };
      if ('hang' in fault) {
        this.log.push({ method: req.method ?? '', path, body, status: 0 });
        this.hanging.push(res);
        return;
      }
      return send(
        fault.status,
        error(String(fault.status), 'fault', 'injected'),
        fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {},
      );
    }

    if (req.method === 'POST' && path === '/oauth/token') {
      const validate = this.contract.requestBody('POST', '/oauth/token');
      if (!validate(body))
        return send(400, {
          errors: pointed(validate.errors, '').map((e) => error('400', 'invalid', e.message, e.pointer)),
        });
      const grant = body as { client_id: string; client_secret: string };
      if (grant.client_id !== CLIENT.clientId || grant.client_secret !== CLIENT.clientSecret) {
        return send(401, error('401', 'CHECKOUT__INVALID_CLIENT', 'The client credentials are invalid.'));
      }
      const token = randomBytes(16).toString('hex');
      this.tokens.set(token, 1);
      return send(200, { token_type: 'Bearer', expires_in: 600, access_token: token });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.tokens.has(bearer))
      return send(
        401,
        error('401', 'FRAMEWORK__UNAUTHORIZED', 'The resource owner or authorization server denied the request.'),
      );

    if (req.method === 'GET' && path === '/_info/version') return send(200, { version: this.contract.version });
    if (req.method === 'POST' && path.startsWith('/search/')) return this.search(path, body, send);
    if (req.method === 'POST' && path === '/_action/sync') return this.sync(body, send);
    const upload = /^\/_action\/media\/([0-9a-f]{32})\/upload$/.exec(path);
    if (req.method === 'POST' && upload)
      return this.upload(upload[1] as string, url.searchParams, binary ? raw : body, send);
    return send(404, error('404', 'FRAMEWORK__ROUTE_NOT_FOUND', `No route ${req.method} ${path}`));
  }

  private search(path: string, body: unknown, send: (s: number, p: unknown) => void): unknown {
    const validate = this.contract.requestBody('POST', path);
    if (!validate(body))
      return send(400, {
        errors: pointed(validate.errors, '').map((e) => error('400', 'invalid', e.message, e.pointer)),
      });
    const entity = path.slice('/search/'.length).replaceAll('-', '_');
    const criteria = body as {
      filter?: { type: string; field: string; value: unknown }[];
      ids?: string[];
      page?: number;
      limit?: number;
      associations?: Record<string, unknown>;
    };
    let rows = this.rows(entity);
    if (criteria.ids) rows = rows.filter((r) => criteria.ids?.includes(String(r.id)));
    for (const f of criteria.filter ?? []) {
      const values =
        f.type === 'equalsAny' ? (Array.isArray(f.value) ? f.value : String(f.value).split('|')) : [f.value];
      rows = rows.filter((r) => values.includes(r[f.field] ?? null));
    }
    const limit = criteria.limit ?? 25;
    const page = criteria.page ?? 1;
    const data = rows.slice((page - 1) * limit, page * limit).map((r) => {
      const out: Row = { ...r };
      if (entity === 'language' && criteria.associations?.locale)
        out.locale = this.table('locale').get(String(r.localeId)) ?? null;
      if (entity === 'media') out.hasFile = Boolean(r.fileName);
      return out;
    });
    send(200, { total: rows.length, data });
  }

  private sync(body: unknown, send: (s: number, p: unknown) => void): unknown {
    const validate = this.contract.requestBody('POST', '/_action/sync');
    if (!validate(body))
      return send(400, {
        errors: pointed(validate.errors, '').map((e) => error('400', 'invalid', e.message, e.pointer)),
      });
    const operations = body as { action: 'upsert' | 'delete'; entity: string; payload: Row[] }[];
    const staged = new Map(
      [...this.state].map(([e, t]) => [e, new Map([...t].map(([k, v]) => [k, structuredClone(v)]))]),
    );
    const errors: ReturnType<typeof error>[] = [];
    const view = { table: (e: string) => staged.get(e) ?? (staged.set(e, new Map()).get(e) as Map<string, Row>) };
    operations.forEach((op, o) => {
      op.payload.forEach((item, i) => {
        const at = `/${o}/${i}`;
        const table = view.table(op.entity);
        const key = this.key(op.entity, item);
        if (op.action === 'delete') {
          if (this.contract.hasEntity(op.entity)) {
            this.validated++;
            const v = this.contract.entity(op.entity, false);
            if (!v(item))
              for (const e of pointed(v.errors, at))
                errors.push(error('400', 'VIOLATION::SCHEMA', e.message, e.pointer));
          }
          this.cascade(view.table, op.entity, key);
          return;
        }
        const found = errors.length;
        const insert = !table.has(key);
        this.validated++;
        if (this.contract.hasEntity(op.entity)) {
          const v = this.contract.entity(op.entity, insert);
          if (!v(item))
            for (const e of pointed(v.errors, at)) errors.push(error('400', 'VIOLATION::SCHEMA', e.message, e.pointer));
        }
        const translations = (item.translations ?? {}) as Record<string, Row>;
        for (const [lang, t] of Object.entries(translations)) {
          this.validated++;
          const v = this.contract.entity(op.entity, false);
          if (!v(t))
            for (const e of pointed(v.errors, `${at}/translations/${lang}`))
              errors.push(error('400', 'VIOLATION::SCHEMA', e.message, e.pointer));
          if (!this.table('language').has(lang))
            errors.push(
              error('400', 'FRAMEWORK__LANGUAGE_NOT_FOUND', `Language ${lang} not found`, `${at}/translations/${lang}`),
            );
        }
        for (const [field, value] of [
          ['name', item.name],
          ...Object.entries(translations).map(([l, t]) => [`translations/${l}/name`, t.name]),
        ] as [string, unknown][]) {
          if (typeof value === 'string' && value.length > MAX_STRING) {
            errors.push({
              ...error(
                '400',
                'c1051bb4-d103-4f74-8988-acbcafc7fdc3',
                `This value is too long. It should have ${MAX_STRING} characters or less.`,
                `${at}/${field}`,
              ),
              title: 'Constraint violation error',
            });
          }
        }
        for (const [fk, target] of [
          ['parentId', 'product'],
          ['productId', 'product'],
          ['taxId', 'tax'],
          ['groupId', 'property_group'],
          ['mediaId', 'media'],
          ['optionId', 'property_group_option'],
          ['categoryId', 'category'],
          ['coverId', 'product_media'],
        ] as const) {
          const ref = item[fk];
          const into = fk === 'parentId' ? op.entity : target;
          if (
            typeof ref === 'string' &&
            !(op.entity === 'product' && fk === 'productId') &&
            !view.table(into).has(ref)
          ) {
            errors.push(
              error('400', 'FRAMEWORK__WRITE_FOREIGN_KEY', `The ${fk} ${ref} does not exist.`, `${at}/${fk}`),
            );
          }
        }
        if (op.entity === 'product' && insert && typeof item.productNumber === 'string') {
          for (const row of table.values()) {
            if (row.productNumber === item.productNumber)
              errors.push(
                error(
                  '400',
                  'CONTENT__DUPLICATE_PRODUCT_NUMBER',
                  `Product with number "${item.productNumber}" already exists.`,
                  `${at}/productNumber`,
                ),
              );
          }
        }
        if (errors.length > found) return;
        const before = table.get(key) ?? {};
        const merged: Row = { ...before, ...item };
        if (item.translations) merged.translations = { ...((before.translations as Row) ?? {}), ...translations };
        if (item.customFields)
          merged.customFields = { ...((before.customFields as Row) ?? {}), ...(item.customFields as Row) };
        table.set(key, merged);
      });
    });
    if (errors.length > 0) {
      this.invalid.push(...errors.map((e) => ({ pointer: e.source?.pointer ?? '', message: e.detail })));
      return send(400, { errors });
    }
    for (const [entity, table] of staged) this.state.set(entity, table);
    send(200, { data: {}, notFound: {}, deleted: {} });
  }

  private upload(
    mediaId: string,
    query: URLSearchParams,
    body: unknown,
    send: (s: number, p: unknown) => void,
  ): unknown {
    // The document's two bodies: JSON `{url}` (Shopware fetches it) or the file's bytes.
    const validate = this.contract.requestBody('POST', '/_action/media/{mediaId}/upload');
    const bytes = Buffer.isBuffer(body) ? (body as Buffer) : null;
    if ((bytes ? bytes.length === 0 : !validate(body)) || !query.get('extension'))
      return send(400, error('400', 'invalid', 'a file or its url, and extension are required'));
    const media = this.table('media').get(mediaId);
    if (!media) return send(404, error('404', 'CONTENT__MEDIA_NOT_FOUND', `Media for id ${mediaId} not found.`));
    const fileName = query.get('fileName') ?? mediaId;
    for (const other of this.rows('media')) {
      if (other.id !== mediaId && other.fileName === fileName && other.fileExtension === query.get('extension')) {
        return send(
          500,
          error('500', 'CONTENT__MEDIA_DUPLICATED_FILE_NAME', `A file with the name "${fileName}" already exists.`),
        );
      }
    }
    Object.assign(
      media,
      bytes
        ? { fileName, fileExtension: query.get('extension'), sha256: createHash('sha256').update(bytes).digest('hex') }
        : { fileName, fileExtension: query.get('extension'), url: (body as { url: string }).url },
    );
    send(204, null);
  }

  private cascade(table: (e: string) => Map<string, Row>, entity: string, key: string): void {
    if (entity === 'product_translation') {
      const [productId, languageId] = key.split(':') as [string, string];
      const translations = table('product').get(productId)?.translations as Row | undefined;
      if (translations) delete translations[languageId];
      return;
    }
    const row = table(entity).get(key);
    table(entity).delete(key);
    if (entity === 'media') {
      // Shopware's foreign keys: product media go with their media, a category's or manufacturer's is set null.
      for (const [k, r] of table('product_media')) if (r.mediaId === key) table('product_media').delete(k);
      for (const e of ['category', 'product_manufacturer'])
        for (const r of table(e).values()) if (r.mediaId === key) r.mediaId = null;
      return;
    }
    if (entity !== 'product' || !row) return;
    for (const child of [...table('product').values()].filter((p) => p.parentId === key))
      this.cascade(table, 'product', String(child.id));
    for (const e of CHILDREN_OF_PRODUCT) {
      for (const [k, r] of table(e)) if (r.productId === key) table(e).delete(k);
    }
  }

  private key(entity: string, row: Row): string {
    const mapping = MAPPING_KEYS[entity];
    return mapping ? `${row[mapping[0]]}:${row[mapping[1]]}` : String(row.id);
  }
}

function error(status: string, code: string, detail: string, pointer?: string) {
  return { status, code, title: code, detail, meta: { parameters: {} }, ...(pointer ? { source: { pointer } } : {}) };
}
