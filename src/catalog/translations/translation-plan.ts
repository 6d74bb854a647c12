import type { Database } from '../../db/client';
import { badRequest } from '../../kernel/app-error';
import { localizedPath } from '../../kernel/languages';
import { parseValue } from '../../kernel/value-types';
import type { ElementRef } from '../../db/scope';
import { builtInField } from '../../model/fields';
import type { ProductNode } from '../../model/product-aggregate';
import type { FieldTarget } from '../value-context';
import type { PlannedWrite } from '../value-plan';
import {
  attributeField,
  LOCALIZABLE_FIELDS,
  translationValueSql,
  writeTranslationStatements,
} from '../../model/translation-store';

/**
 * SetValue of a field in a language other than its catalog's default (docs/languages.md): the
 * field's translation, never the column. Only localizable fields: a product's or variant's
 * name, description and keywords, a category's name and description, a localizable text
 * attribute's value; anything else is a 400 naming `language`. An empty value removes the
 * translation. The history path names the language (`name@eng`, `values.colour@fra`).
 */
export function planTranslationWrite(
  db: Database,
  element: ElementRef,
  field: string,
  target: FieldTarget,
  raw: string,
  language: string,
): PlannedWrite {
  const { translationField, rule } = localizableTarget(element, field, target, language);
  const parsed = raw === '' ? null : parseValue(field, raw, rule).value;
  const [statement, ...follow] = writeTranslationStatements(db, element.id, language, { [translationField]: parsed });
  return {
    statement: statement!,
    follow,
    value: parsed ?? '',
    path: localizedPath(translationField, language),
    stored: parsed,
    currentSql: translationValueSql(element.id, translationField, language),
    applyTo: (node: ProductNode) => {
      const all = { ...(node.translations ?? {}) };
      const texts = { ...(all[language] ?? {}) };
      if (parsed === null) delete texts[translationField];
      else texts[translationField] = parsed;
      all[language] = texts;
      node.translations = all;
    },
  };
}

/** Whether `field` of `element` has a text per language (a translator may write it, docs/teams.md). */
export function isLocalizable(element: ElementRef, field: string, target: FieldTarget): boolean {
  const builtIn = builtInField(element.kind, field);
  if (builtIn)
    return element.kind !== 'catalog' && (LOCALIZABLE_FIELDS[element.kind] as readonly string[]).includes(field);
  return target.kind === 'attribute' && target.attribute.localizable;
}

/** The translation field `field` names on `element`, with its rule; 400 naming `language` unless localizable. */
export function localizableTarget(element: ElementRef, field: string, target: FieldTarget, language: string) {
  const kind = element.kind;
  const builtIn = builtInField(kind, field);
  if (builtIn) {
    const localizable: readonly string[] = kind === 'catalog' ? [] : LOCALIZABLE_FIELDS[kind];
    if (localizable.includes(field)) return { translationField: field, rule: builtIn.rule };
  } else if (target.kind === 'attribute' && target.attribute.localizable) {
    const { attribute } = target;
    return {
      translationField: attributeField(attribute.code),
      rule: { type: attribute.type, unit: attribute.unit, enumValues: attribute.enumValues },
    };
  } else if (target.kind === 'none') {
    throw badRequest(
      `field: "${field}" is not a field of this ${kind}, an attribute, or a feature of its classification`,
    );
  }
  throw badRequest(
    `language: ${field} of a ${kind} is the same in every language; write it without language (not in ${language})`,
  );
}
