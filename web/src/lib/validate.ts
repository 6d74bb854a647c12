/**
 * Checks a form before it is sent, with the rules the API applies (src/kernel/code-rules.ts, imported),
 * so the common mistakes are named next to the field at once. The API still checks everything; its
 * answer is shown where a rule here does not catch it.
 */
import {
  CURRENCY_CODE,
  DECIMAL,
  gtinProblem,
  LANGUAGE_CODE,
  normaliseDecimal,
  positiveAmount,
  UNIT_CODE,
} from '../../../src/kernel/code-rules';

type FieldProblem =
  | 'required'
  | 'gtinDigits'
  | 'gtinCheck'
  | 'price'
  | 'unit'
  | 'language'
  | 'currency'
  | 'wholeNumber'
  | 'positiveAmount'
  | 'tooLong'
  | 'passwordShort'
  | 'passwordMismatch';

type Problems<K extends string> = Partial<Record<K, FieldProblem>>;

export function checkGtin(value: string): FieldProblem | null {
  const problem = gtinProblem(value);
  return problem === 'digits' ? 'gtinDigits' : problem === 'checkDigit' ? 'gtinCheck' : null;
}

export interface ProductForm {
  sku: string;
  name: string;
  gtin: string;
  price: string;
  unit: string;
  priceQuantity: string;
  contentUnit: string;
  contentPerUnit: string;
  quantityMin: string;
  quantityInterval: string;
  deliveryTimeDays: string;
  manufacturerName: string;
  manufacturerPid: string;
  description: string;
  keywords: string;
  status: string;
}

export function validateProduct(
  form: Partial<ProductForm>,
  { requireSku }: { requireSku: boolean },
): Problems<keyof ProductForm> {
  const p: Problems<keyof ProductForm> = {};
  const sku = form.sku?.trim() ?? '';
  if (requireSku && !sku) p.sku = 'required';
  else if (sku.length > 64) p.sku = 'tooLong';
  const gtin = form.gtin?.trim();
  if (gtin) p.gtin = checkGtin(gtin) ?? undefined;
  const price = form.price?.trim();
  if (price && !DECIMAL.test(price)) p.price = 'price';
  const unit = form.unit?.trim();
  if (unit && !UNIT_CODE.test(unit)) p.unit = 'unit';
  if (form.priceQuantity?.trim() && !/^[1-9]\d*$/.test(form.priceQuantity.trim())) p.priceQuantity = 'wholeNumber';
  if (form.deliveryTimeDays?.trim() && !/^\d+$/.test(form.deliveryTimeDays.trim())) p.deliveryTimeDays = 'wholeNumber';
  const contentUnit = form.contentUnit?.trim();
  if (contentUnit && !UNIT_CODE.test(contentUnit)) p.contentUnit = 'unit';
  for (const key of ['contentPerUnit', 'quantityMin', 'quantityInterval'] as const) {
    const v = form[key]?.trim();
    if (v && (!DECIMAL.test(v) || positiveAmount(normaliseDecimal(v)) !== null)) p[key] = 'positiveAmount';
  }
  for (const key of Object.keys(p) as (keyof ProductForm)[]) if (p[key] === undefined) delete p[key];
  return p;
}

export interface CatalogForm {
  name: string;
  catalogType: string;
  catalogVersion: string;
  language: string;
  currency: string;
}

export function validateCatalog(form: CatalogForm): Problems<keyof CatalogForm> {
  const p: Problems<keyof CatalogForm> = {};
  if (!form.name.trim()) p.name = 'required';
  if (form.catalogVersion.length > 20) p.catalogVersion = 'tooLong';
  if (form.catalogType.length > 50) p.catalogType = 'tooLong';
  if (form.language && !LANGUAGE_CODE.test(form.language)) p.language = 'language';
  if (form.currency && !CURRENCY_CODE.test(form.currency)) p.currency = 'currency';
  return p;
}

export function validatePasswordChange(
  current: string,
  next: string,
  repeat: string,
): Problems<'current' | 'next' | 'repeat'> {
  const p: Problems<'current' | 'next' | 'repeat'> = {};
  if (!current) p.current = 'required';
  if (next.length < 12) p.next = 'passwordShort';
  if (repeat !== next) p.repeat = 'passwordMismatch';
  return p;
}

/** Product form -> ProductDto fields: empty inputs become null (cleared), numbers become numbers. */
export function productPayload(form: Partial<ProductForm>): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  const text = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v.trim());
  for (const key of [
    'sku',
    'name',
    'gtin',
    'unit',
    'contentUnit',
    'manufacturerName',
    'manufacturerPid',
    'keywords',
    'status',
  ] as const) {
    const v = text(form[key]);
    if (v !== undefined) out[key] = v;
  }
  if (form.description !== undefined) out.description = form.description === '' ? null : form.description;
  const price = text(form.price);
  if (price !== undefined) out.price = price === null ? null : price.replace(',', '.');
  // Amounts are sent as text, as written (a comma becomes the dot the API stores).
  for (const key of ['contentPerUnit', 'quantityMin', 'quantityInterval'] as const) {
    const v = text(form[key]);
    if (v !== undefined) out[key] = v === null ? null : v.replace(',', '.');
  }
  for (const key of ['priceQuantity', 'deliveryTimeDays'] as const) {
    const v = text(form[key]);
    if (v !== undefined) out[key] = v === null ? null : Number(v);
  }
  return out;
}
