/**
 * Checks a form before it is sent, with the same rules the API applies (src/catalog/catalog.schemas.ts),
 * so the common mistakes are named next to the field at once. The API still checks everything; its
 * answer is shown where a rule here does not catch it.
 */
type FieldProblem =
  | 'required'
  | 'gtinDigits'
  | 'gtinCheck'
  | 'price'
  | 'unit'
  | 'language'
  | 'currency'
  | 'wholeNumber'
  | 'tooLong'
  | 'passwordShort'
  | 'passwordMismatch';

type Problems<K extends string> = Partial<Record<K, FieldProblem>>;

export function checkGtin(value: string): FieldProblem | null {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return 'gtinDigits';
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check ? null : 'gtinCheck';
}

export interface ProductForm {
  sku: string;
  name: string;
  gtin: string;
  price: string;
  unit: string;
  priceQuantity: string;
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
  if (price && !/^\d{1,12}([.,]\d{1,4})?$/.test(price)) p.price = 'price';
  const unit = form.unit?.trim();
  if (unit && !/^[A-Z0-9]{2,3}$/.test(unit)) p.unit = 'unit';
  if (form.priceQuantity?.trim() && !/^[1-9]\d*$/.test(form.priceQuantity.trim())) p.priceQuantity = 'wholeNumber';
  if (form.deliveryTimeDays?.trim() && !/^\d+$/.test(form.deliveryTimeDays.trim())) p.deliveryTimeDays = 'wholeNumber';
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
  if (form.language && !/^[a-z]{3}$/.test(form.language)) p.language = 'language';
  if (form.currency && !/^[A-Z]{3}$/.test(form.currency)) p.currency = 'currency';
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
  for (const key of ['priceQuantity', 'deliveryTimeDays'] as const) {
    const v = text(form[key]);
    if (v !== undefined) out[key] = v === null ? null : Number(v);
  }
  return out;
}
