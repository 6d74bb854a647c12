import type { ClassificationGroup } from '../../../kernel/classification-groups';
import { releaseOfSystem } from '../../../kernel/release-name';
import { attachmentProblem, compactAttachment } from '../../../kernel/media-attachment';
import { MEDIA_PURPOSES } from '../../../media/media';
import { isLinkUrl, linkFileName, mediaKey } from '../../../media/media-links.rules';
import { builtInField } from '../../../model/fields';
import type { ParsedValue, ValueRule } from '../../../kernel/value-types';
import { groupOfSystem, type ReferenceCache } from './reference-cache';
import { keptUnit, orderUnit } from './order-units';
import { resolvePrices } from '../../prices/resolve-prices';
import { asRange, parse, resolveClassification, type WarnFn } from './resolve-classification';
import { type ResolvedNode, ItemError, type UpsertRecord } from '../upsert-types';
import { resolveReferences } from '../../references/resolve-references';
import { normaliseBlock } from '../../../model/feature-block-types';
import { resolveTranslations } from './upsert-translations';

/** One product or variant as it should be stored: every value parsed and normalised. */

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
};

/** A media reference's content type: as given, else from the file name's extension. */
export function contentTypeOf(fileName: string, given?: string | null): string {
  if (given && /^[\w.+-]+\/[\w.+-]+$/.test(given)) return given.toLowerCase();
  return CONTENT_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The groups and codes a record's classification names, for ReferenceCache.prefetch. */
export function classesNeeded(
  record: UpsertRecord,
): { group: ClassificationGroup; code: string; release: string | null }[] {
  return (record.classification?.classes ?? []).flatMap((c) => {
    const group = (c.group as ClassificationGroup | null | undefined) ?? groupOfSystem(c.system);
    return group ? [{ group, code: c.code, release: c.release ?? releaseOfSystem(c.system) }] : [];
  });
}

/** A text field's value cut to its maximum length (tolerant resolve). */
function truncated(raw: string, rule: ValueRule): string | null {
  if (rule.type !== 'text' || !rule.maxLength || [...raw].length <= rule.maxLength) return null;
  const cut = [...raw].slice(0, rule.maxLength).join('');
  return rule.check?.(cut) ? null : cut;
}

/**
 * Checks and normalises one record with the rules SetValue uses (built-in fields from
 * model/fields.ts, attribute types, classification reference data). Throws ItemError.
 */
export function resolveRecord(cache: ReferenceCache, record: UpsertRecord, warn?: WarnFn): ResolvedNode {
  const sku = parse('sku', record.sku, builtInField('product', 'sku')!.rule).value;
  const fields: Record<string, string | number | null> = {};
  for (const [key, raw] of Object.entries(record.fields)) {
    if (raw === undefined) continue;
    const field = builtInField('product', key)!;
    if (raw === null || raw === '') {
      if (field.required) throw new ItemError(key, 'must not be empty');
      fields[field.column] = null;
      continue;
    }
    let parsed: ParsedValue;
    // Tolerant: an order or content unit as suppliers write it (Stück, PCE, Meter ...) becomes its
    // Rec. 20 code. Only the order unit is kept when it is neither (a content unit is then invalid).
    const unit = (key === 'unit' || key === 'contentUnit') && warn ? orderUnit(raw) : null;
    if (unit?.alias)
      warn!(
        key,
        'unit_alias',
        `${key === 'unit' ? 'order' : 'content'} unit "${raw}" is not a UN/ECE Rec. 20 code: stored as ${unit.code}`,
      );
    if (key === 'unit' && warn && !unit) {
      // Neither a code nor an alias (e.g. "Rolle 50 m"): kept as written, so nothing the supplier
      // said is lost; the exports write C62 for it with a warning (order-units.ts, KEPT_UNIT_MAX).
      const kept = keptUnit(raw);
      warn(
        key,
        'unit_kept',
        `order unit "${raw.slice(0, 60)}" is neither a UN/ECE Rec. 20 code nor a known alias: kept as "${kept}"`,
      );
      fields[field.column] = kept;
      continue;
    }
    try {
      parsed = parse(key, unit?.code ?? raw, field.rule);
    } catch (err) {
      if (!warn || !(err instanceof ItemError) || field.required) throw err;
      const cut = truncated(raw, field.rule);
      if (cut !== null) {
        warn(key, 'field_truncated', `${err.message}: cut to ${[...cut].length} characters`);
        parsed = parse(key, cut, field.rule);
      } else {
        warn(key, 'field_invalid', `${err.message}: "${raw.slice(0, 60)}" is not stored`);
        fields[field.column] = null;
        continue;
      }
    }
    fields[field.column] = field.rule.type === 'integer' ? parsed.number : parsed.value;
  }
  const node: ResolvedNode = { sku, parentSku: record.parentSku ?? null, fields };
  if (record.categoryIds) {
    if (node.parentSku) throw new ItemError('categoryIds', 'variants are placed through their master product');
    node.categoryIds = [...new Set(record.categoryIds)];
  }
  if (record.values) {
    node.values = [];
    for (const [code, raw] of Object.entries(record.values)) {
      const attribute = cache.attribute(code);
      if (!attribute) {
        const message = `"${code}" is not an attribute of your company (GetAttributes)`;
        if (!warn) throw new ItemError(`values.${code}`, message);
        warn(`values.${code}`, 'attribute_unknown', `${message}: value "${raw.slice(0, 60)}" left out`);
        continue;
      }
      if (raw === '') continue;
      let parsed: ParsedValue;
      try {
        parsed = parse(`values.${code}`, asRange(attribute.type === 'range', raw), {
          type: attribute.type,
          unit: attribute.unit,
          enumValues: attribute.enumValues,
        });
      } catch (err) {
        if (!warn || !(err instanceof ItemError)) throw err;
        warn(`values.${code}`, 'attribute_invalid', `${err.message}: "${raw.slice(0, 60)}" left out`);
        continue;
      }
      node.values.push({
        attributeId: attribute.id,
        code,
        value: parsed.value,
        numberValue: parsed.number,
        numberValueTo: parsed.numberTo,
      });
    }
  }
  if (record.classification !== undefined) {
    node.classification =
      record.classification === null || record.classification.classes.length === 0
        ? null
        : resolveClassification(cache, record.classification, warn);
    // Tolerant: every class left out leaves no classification.
    if (node.classification?.classes.length === 0) node.classification = null;
  }
  if (record.media) {
    const seen = new Set<string>();
    node.media = [];
    for (const m of record.media) {
      if (m.url && !isLinkUrl(m.url))
        throw new ItemError('media', `"${m.url.slice(0, 60)}" is not an absolute http(s) URL`);
      const fileName = m.url && !m.fileName ? linkFileName(m.url) : m.fileName;
      if (!/^[^/\\\u0000-\u001f]{1,200}$/.test(fileName))
        throw new ItemError('media', `"${fileName.slice(0, 40)}" is not a file name`);
      const key = mediaKey({ url: m.url, fileName });
      if (seen.has(key)) continue;
      const attachment = compactAttachment(m.attachment);
      const problem = attachment && attachmentProblem(attachment);
      if (problem) throw new ItemError('media', `attachment of "${fileName.slice(0, 40)}": ${problem}`);
      seen.add(key);
      const purpose =
        m.purpose && (MEDIA_PURPOSES as readonly string[]).includes(m.purpose)
          ? m.purpose
          : m.purpose
            ? 'others'
            : 'normal';
      node.media.push({
        fileName,
        contentType: contentTypeOf(fileName, m.contentType),
        purpose,
        description: m.description || null,
        url: m.url || null,
        mimeCode: m.url ? m.mimeCode?.trim().slice(0, 10) || null : null,
        alt: m.alt?.trim().slice(0, 80) || null,
        attachment,
        ...(m.descriptions ? { descriptions: m.descriptions } : {}),
      });
    }
  }
  if (record.prices) {
    const { rows, price } = resolvePrices(record.prices, warn);
    node.prices = rows;
    if (price !== undefined) node.fields.price = price;
  }
  if (record.references)
    node.references = resolveReferences(
      sku,
      record.references,
      (field, message) => {
        throw new ItemError(field, message);
      },
      warn,
    );
  if (record.udx !== undefined) node.udx = record.udx;
  if (record.featureBlocks) node.featureBlocks = record.featureBlocks.map(normaliseBlock);
  if (record.featureBlocks && record.featureBlockSystems) node.featureBlockSystems = record.featureBlockSystems;
  if (record.translations) node.translations = resolveTranslations(cache, record.translations, warn);
  return node;
}
