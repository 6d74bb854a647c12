import type { MessageKey } from '../i18n/de';
import type { T } from '../i18n/i18n';
import { ApiError } from './client';
import { describeImportFailure } from './import-errors';

const STATUS_KEYS: Record<number, MessageKey> = {
  0: 'err.network',
  400: 'err.400',
  401: 'err.401',
  403: 'err.403',
  404: 'err.404',
  409: 'err.409',
  413: 'err.413',
  415: 'err.400',
  422: 'err.400',
  429: 'err.429',
};

/** Built-in field names as the API writes them in messages ("gtin: ..."), for the user's words. */
const FIELD_KEYS: Record<string, MessageKey> = {
  sku: 'field.sku',
  name: 'field.name',
  gtin: 'field.gtin',
  price: 'field.price',
  unit: 'field.unit',
  status: 'field.status',
  description: 'field.description',
  manufacturerName: 'field.manufacturerName',
  manufacturerPid: 'field.manufacturerPid',
  keywords: 'field.keywords',
  deliveryTimeDays: 'field.deliveryTimeDays',
  priceQuantity: 'field.priceQuantity',
  contentUnit: 'field.contentUnit',
  contentPerUnit: 'field.contentPerUnit',
  quantityMin: 'field.quantityMin',
  quantityInterval: 'field.quantityInterval',
  language: 'field.language',
  currency: 'field.currency',
  catalogVersion: 'field.catalogVersion',
  catalogType: 'field.catalogType',
  newPassword: 'account.newPassword',
  parentId: 'field.parentId',
  fileName: 'field.fileName',
  value: 'field.value',
};

/**
 * One sentence a product manager understands: what kind of problem (by status, in the UI's
 * language), then the API's own message, which names the field and the rule. A 500 carries only
 * a request id (never internals), which we pass on for support.
 */
export function describeError(error: unknown, t: T): string {
  if (!(error instanceof ApiError)) return t('err.unknown');
  if (error.unsupported) return t('err.unsupported');
  if (error.status >= 500) return error.message ? `${t('err.500')} (${error.message})` : t('err.500');
  const imported = error.message ? describeImportFailure(error.message, t) : null;
  if (imported) return imported;
  const lead = t(STATUS_KEYS[error.status] ?? 'err.unknown');
  const detail = humanizeDetail(error.message, t);
  return detail ? `${lead} ${detail}` : lead;
}

/** "gtin: \"123\" is not ..." reads better as "GTIN: \"123\" is not ..." with the field's label. */
function humanizeDetail(message: string, t: T): string {
  if (!message || message === 'network') return '';
  const match = /^([A-Za-z]+)(:| must)/.exec(message);
  const key = match ? FIELD_KEYS[match[1]!] : undefined;
  const text = key ? `${t(key)}${message.slice(match![1]!.length)}` : message;
  return text.endsWith('.') ? text : `${text}.`;
}

/** True when a query failed because the server does not offer the operation yet. */
export const isUnsupported = (error: unknown) => error instanceof ApiError && error.unsupported;
