import { TargetError, type TargetMapping } from '../target-adapter';
import type { ShopwareClient } from './client';
import { shopwareId } from './ids';
import { PlanError } from './plan';

/**
 * What the adapter reads from the shop once per instance: language ids by locale, the mapped
 * currency's id, the tax rates (PIM prices are net; Shopware keeps net and gross), and the rule
 * advanced prices hang on (looked up by name, created once with a derived id).
 */
export const SYSTEM_LANGUAGE_ID = '2fbb5fe2e29a4d70aa5854ce7ce3e20b';
export const TIER_RULE_NAME = 'PIM: tier prices (all customers)';

export interface ShopLanguage {
  id: string;
  name: string;
  locale: string | null;
}

export interface ShopContext {
  languageIds: Map<string, string>;
  topLanguage: string;
  currencyId: string;
  taxRates: Map<string, number>;
  ruleId: () => Promise<string>;
  /**
   * The shop's unit whose short code is a UN/ECE Rec. 20 code (a content unit, plan.ts), as GET
   * /mappings matches the order unit; read once, the first time a record has a content unit.
   */
  unitIdOf: (code: string) => Promise<string | undefined>;
}

export async function readLanguages(client: ShopwareClient): Promise<ShopLanguage[]> {
  const rows = await client.searchAll<{ id: string; name: string; locale?: { code?: string } | null }>('language', {
    associations: { locale: {} },
    includes: { language: ['id', 'name', 'locale'], locale: ['code'] },
  });
  return rows.map((r) => ({ id: r.id, name: r.name, locale: r.locale?.code ?? null }));
}

export async function loadContext(client: ShopwareClient, mapping: TargetMapping): Promise<ShopContext> {
  const languages = await readLanguages(client);
  const byLocale = new Map(languages.filter((l) => l.locale).map((l) => [(l.locale as string).toLowerCase(), l.id]));
  const languageIds = new Map<string, string>();
  for (const [pim, locale] of Object.entries(mapping.languages)) {
    const id = byLocale.get(locale.toLowerCase());
    if (id) languageIds.set(pim, id);
  }
  const system = languages.find((l) => l.id === SYSTEM_LANGUAGE_ID)?.locale?.toLowerCase();
  const topLanguage =
    Object.entries(mapping.languages).find(([, locale]) => locale.toLowerCase() === system)?.[0] ??
    mapping.defaultLanguage;

  const currencies = await client.search<{ id: string; isoCode: string }>('currency', {
    filter: [{ type: 'equals', field: 'isoCode', value: mapping.currency }],
    includes: { currency: ['id', 'isoCode'] },
  });
  const currency = currencies[0];
  if (!currency) throw new TargetError(`the shop has no currency ${mapping.currency}`, false);

  const taxes = await client.searchAll<{ id: string; taxRate: number }>('tax', {
    includes: { tax: ['id', 'taxRate'] },
  });
  let rule: Promise<string> | null = null;
  let units: Promise<Map<string, string>> | null = null;
  return {
    languageIds,
    topLanguage,
    currencyId: currency.id,
    taxRates: new Map(taxes.map((t) => [t.id, Number(t.taxRate)])),
    ruleId: () => {
      rule ??= tierRule(client).catch((err) => {
        rule = null;
        throw err;
      });
      return rule;
    },
    unitIdOf: async (code) => {
      units ??= readUnits(client).catch((err) => {
        units = null;
        throw err;
      });
      return (await units).get(code);
    },
  };
}

async function readUnits(client: ShopwareClient): Promise<Map<string, string>> {
  const rows = await client.searchAll<{ id: string; shortCode?: string | null; translated?: { shortCode?: string } }>(
    'unit',
    { includes: { unit: ['id', 'shortCode', 'translated'] } },
  );
  return new Map(rows.map((u) => [u.translated?.shortCode ?? u.shortCode ?? '', u.id]));
}

async function tierRule(client: ShopwareClient): Promise<string> {
  const found = await client.search<{ id: string }>('rule', {
    filter: [{ type: 'equals', field: 'name', value: TIER_RULE_NAME }],
    includes: { rule: ['id'] },
    limit: 1,
  });
  if (found[0]) return found[0].id;
  const id = await shopwareId('rule', TIER_RULE_NAME);
  const conditionId = await shopwareId('rule_condition', TIER_RULE_NAME);
  const answer = await client.request('POST', '/_action/sync', [
    {
      action: 'upsert',
      entity: 'rule',
      payload: [
        {
          id,
          name: TIER_RULE_NAME,
          priority: 1,
          description: 'Tier prices written by the PIM; matches every customer.',
          conditions: [{ id: conditionId, ruleId: id, type: 'alwaysValid' }],
        },
      ],
    },
  ]);
  if (answer.status >= 300) throw new PlanError('product.prices', 'the shop refused the rule for tier prices');
  return id;
}
