import type { TargetMapping } from '../target-adapter';
import type { Node } from './features';

/** The texts a node has per language (wire `translations`: ISO 639-2 code -> field -> text). */
export type TextField = 'name' | 'description' | 'keywords';

/** The PIM languages the mapping sends and their shop locales, the default language first. */
export function localesOf(mapping: TargetMapping): [language: string, locale: string][] {
  const pairs = Object.entries(mapping.languages);
  return pairs.sort(([a], [b]) => Number(b === mapping.defaultLanguage) - Number(a === mapping.defaultLanguage));
}

/** The mapped languages other than the default: the ones a shop keeps as translations. */
export function translatedLocalesOf(mapping: TargetMapping): [language: string, locale: string][] {
  return localesOf(mapping).filter(([language]) => language !== mapping.defaultLanguage);
}

/**
 * A node's text of one field in one PIM language: the field itself in the default language,
 * else its translation. Null when it has none (an empty text counts as none); callers choose
 * their own fallback (the default language's text, the master's).
 */
export function textIn(node: Node, field: TextField, language: string, mapping: TargetMapping): string | null {
  const text = language === mapping.defaultLanguage ? node[field] : node.translations?.[language]?.[field];
  return text === undefined || text === null || text === '' ? null : text;
}
