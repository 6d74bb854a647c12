import { describe, expect, it } from 'vitest';
import { translator } from '../src/i18n/i18n';
import {
  changeRows,
  fieldLabel,
  reasonText,
  referenceText,
  runBarOf,
  shopProgressText,
  subtreeRunText,
  testFailureText,
  testMessage,
  warningText,
} from '../src/lib/sync-words';
import { shopWarnings } from '../../src/sync/shop-warnings';
import { defaultMapping } from '../../src/sync/protocol/target';
import { categoryScopeNames } from '../src/lib/team';

const en = translator('en');
const de = translator('de');

describe("the test's warnings in plain words", () => {
  it('says every warning the server words (src/sync/shop-warnings.ts) in German, with its names', () => {
    const warnings = shopWarnings(
      { language: 'eng', languages: ['eng', 'deu', 'ita'] },
      { ...defaultMapping('shopware'), currency: 'CHF' },
      { name: 'Demo', languages: ['de-DE'], currencies: ['EUR'], details: {} },
    );
    expect(warnings).toHaveLength(4);
    expect(warnings.map((w) => warningText(w, de))).toEqual([
      'Die Zuordnung nennt „deu“ als Sprache der Katalogtexte, der Katalog aber „eng“: seine Texte kämen als falsche Sprache an.',
      '„eng“ geht an die Locale „en-GB“, die der Shop nicht anbietet (er hat de-DE): diese Texte gehen verloren.',
      'Der Katalog veröffentlicht „ita“, aber dafür ist keine Locale gesetzt: diese Texte werden nicht gesendet.',
      'Preise werden in CHF gesendet, die der Shop nicht führt (er hat EUR).',
    ]);
  });

  it('shows a warning it does not know as the API said it', () => {
    expect(warningText('something new', de)).toBe('something new');
  });
});

describe('why a record was quarantined', () => {
  it("says the PIM's own reasons in the user's language", () => {
    expect(reasonText('unit "XYZ" has no mapping in the shop', en)).toBe(
      'The shop has no unit “XYZ”: map it in the shop or change it in the PIM.',
    );
    expect(reasonText('tax code "V19" has no mapping in the shop', de)).toBe(
      'Im Shop gibt es keine Zuordnung für Steuerschlüssel „V19“: im Shop anlegen oder im PIM ändern.',
    );
    expect(reasonText('the record is larger than the connector accepts in one request (1000 bytes as JSON)', de)).toBe(
      'Das Produkt ist zu groß, um in einem Stück gesendet zu werden.',
    );
  });

  it("labels the field a shop refused and keeps the shop's words; several reasons are each said", () => {
    expect(reasonText('product.name: Title is too long', de)).toBe('Der Shop hat Name abgelehnt: Title is too long');
    expect(reasonText('sku: the SKU belongs to a product the shop owns; product.gtin: invalid', en)).toBe(
      'The SKU belongs to a product the shop created itself; the PIM does not overwrite it. The shop refused GTIN: invalid',
    );
    expect(reasonText('product.variants.2.unitId: unknown unit id "u-9"', en)).toBe(
      'The shop no longer knows the Unit “u-9”.',
    );
  });

  it('keeps a reason it does not know as it is', () => {
    expect(reasonText('something else happened', de)).toBe('something else happened');
  });
});

describe('a failed test', () => {
  it("leads with who refused and keeps the shop's reason", () => {
    expect(testFailureText(502, 'the shop refused: could not reach https://shop.example', de)).toBe(
      'Der Shop hat abgelehnt: could not reach https://shop.example',
    );
    expect(testFailureText(0, 'the connector could not be reached: fetch failed', en)).toBe(
      'The connector could not be reached: fetch failed',
    );
    expect(testFailureText(401, 'signature', en)).toBe(
      'The connector refused the signature: key ID or secret do not match.',
    );
    expect(testFailureText(500, 'HTTP 500', en)).toBe('Connection failed (status 500): HTTP 500');
  });

  it('says what a successful test found, and a failed one as testFailureText does (a saved or an unsaved shop alike)', () => {
    const found = { ok: true, status: 200, mappings: { manufacturers: 3, units: 2, taxes: 1 } };
    expect(testMessage(found, de)).toBe('Verbindung in Ordnung: 3 Hersteller, 2 Einheiten, 1 Steuersätze.');
    const refused = { ok: false, status: 400, mappings: null, error: 'url: the URL points to a private address' };
    expect(testMessage(refused, en)).toBe('Connection failed (status 400): url: the URL points to a private address');
  });
});

describe("a dry run's changes", () => {
  it("groups a variant's fields under its SKU (dots in SKUs included) and says which variants come or go", () => {
    const rows = changeRows({
      changes: [
        {
          sku: 'NYM-J',
          op: 'update',
          fields: ['name', 'prices', 'variants.NYM-J.3x1.5.price', 'variants.NYM-J.3x1.5.gtin', 'variants.NYM-J.5x2.5'],
          moreFields: 3,
        },
        { sku: 'NEW-1', op: 'create', fields: ['description', 'name'] },
        { sku: 'OLD-1', op: 'deactivate', fields: [] },
      ],
    });
    expect(rows).toEqual([
      {
        sku: 'NYM-J',
        op: 'update',
        fields: ['name', 'prices'],
        variants: [
          { sku: 'NYM-J.3x1.5', fields: ['price', 'gtin'] },
          { sku: 'NYM-J.5x2.5', fields: [] },
        ],
        more: 3,
        references: [],
      },
      { sku: 'NEW-1', op: 'create', fields: ['description', 'name'], variants: [], more: 0, references: [] },
      { sku: 'OLD-1', op: 'deactivate', fields: [], variants: [], more: 0, references: [] },
    ]);
    expect(changeRows({})).toEqual([]);
  });

  it('says how each reference by manufacturer number resolves in the shop', () => {
    const [row] = changeRows({
      changes: [
        {
          sku: 'LS-B16',
          op: 'update',
          fields: ['references'],
          references: [
            { type: 'accessories', number: 'HG-7', sku: 'LS-C16' },
            { type: 'spare', number: 'HG-9', sku: null },
          ],
        },
      ],
    });
    expect(row!.references.map((reference) => referenceText(reference, en))).toEqual([
      'Reference (accessories) by manufacturer number HG-7: LS-C16',
      'Reference (spare) by manufacturer number HG-9: no single product in the shop carries it, so the product would not be written',
    ]);
    expect(referenceText(row!.references[1]!, de)).toBe(
      'Verweis (spare) über Herstellernummer HG-9: kein einzelnes Produkt im Shop trägt sie, das Produkt würde nicht geschrieben',
    );
  });

  it('labels the order details a shop refused (issue 32) in the language', () => {
    expect(
      reasonText(
        'product.quantityMin: the shop keeps the minimum purchase (minPurchase) as a whole number: 2.5 is not sent rounded',
        de,
      ),
    ).toBe(
      'Der Shop hat Mindestbestellmenge abgelehnt: the shop keeps the minimum purchase (minPurchase) as a whole number: 2.5 is not sent rounded',
    );
    expect(fieldLabel('product.variants.1.quantityInterval', en)).toBe('Variants 1.quantityInterval');
    expect(['contentUnit', 'contentPerUnit', 'quantityMin', 'quantityInterval'].map((f) => fieldLabel(f, en))).toEqual([
      'Content unit',
      'Content per order unit',
      'Minimum order quantity',
      'Order quantity step',
    ]);
  });

  it('labels wire fields in the language and leaves unknown ones as they are', () => {
    expect(fieldLabel('prices', de)).toBe('Preisliste');
    expect(fieldLabel('product.variants.0.sku', en)).toBe('Variants 0.sku');
    expect(fieldLabel('somethingNew', en)).toBe('somethingNew');
  });
});

describe("a run's progress against the shop", () => {
  it("says the batches the shop took and the records done, in the user's language and number format", () => {
    expect(shopProgressText({ batchNo: 3, records: 1250 }, en, (n) => n.toLocaleString('en'))).toBe(
      '3 batches taken by the shop, 1,250 records done (how many in all is known once the catalog has been compared with the shop)',
    );
    expect(shopProgressText({ batchNo: 0, records: 0 }, de)).toBe(
      '0 Pakete vom Shop übernommen, 0 Datensätze erledigt (wie viele insgesamt, steht fest, sobald der Katalog mit dem Shop verglichen ist)',
    );
  });

  it('says "N of M records" once the run knows its total, and the bar counts them then', () => {
    const progress = { done: 400, total: 1000, batchNo: 3, records: 250, recordsTotal: 1000 };
    expect(shopProgressText(progress, en, (n) => n.toLocaleString('en'))).toBe(
      '3 batches taken by the shop, 250 of 1,000 records done',
    );
    expect(shopProgressText(progress, de)).toBe('3 Pakete vom Shop übernommen, 250 von 1000 Datensätzen erledigt');
    expect(runBarOf(progress)).toEqual({ done: 250, total: 1000, counts: 'records' });
    expect(runBarOf({ done: 400, total: 1000, records: 250 })).toEqual({
      done: 400,
      total: 1000,
      counts: 'masters',
    });
  });

  it('says nothing while the run has no batch position (queued)', () => {
    expect(shopProgressText({}, en)).toBeNull();
  });
});

describe("a scoped member's run over their subtrees", () => {
  const names = categoryScopeNames([
    { categoryId: 'c-lines', path: [{ name: 'Brand' }, { name: 'Lines' }] },
    { categoryId: 'c-lamps', path: [{ name: 'Lamps' }] },
    undefined, // a path still loading
  ]);
  const format = (n: number) => n.toLocaleString('de-DE');

  it('names the categories it covered by their paths and the shop products it kept', () => {
    const subtree = { categoryIds: ['c-lines', 'c-lamps'], keptInShop: 1250 };
    expect(subtreeRunText(subtree, names, en, format)).toBe(
      'This run covered your part of the catalog only (Brand › Lines, Lamps): 1.250 products of the shop outside it were kept and nothing was taken out of the shop. Products deleted in your part stay in the shop until a run over the whole catalog.',
    );
    expect(subtreeRunText(subtree, names, de, format)).toContain(
      'Dieser Lauf umfasste nur Ihren Teil des Katalogs (Brand › Lines, Lamps): 1.250 Produkte des Shops',
    );
  });

  it('shows a category not loaded (or deleted since) as its id', () => {
    expect(subtreeRunText({ categoryIds: ['c-gone'], keptInShop: 0 }, names, en)).toContain(
      'your part of the catalog only (c-gone): 0 products',
    );
  });
});
