import { describe, expect, it } from 'vitest';
import { PriceDto, toStored } from '../src/model/price-list';
import { syncPriceList } from '../src/model/price-records';
import { article, file } from './fixtures/bmecat-variants';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { exportText, importText, price, priceFile, START } from './helpers/price-base-files';

/**
 * Issue 32, prices: a price with an amount is never lost. A type that is neither BMEcat's nor
 * `udp_` (`Listenpreis`, as real files write it) is kept as its `udp_` form; a negative amount
 * (a credit) is kept, written back where the schema takes it (every BMEcat XSD: dtNUMBER is
 * xsd:decimal) and reported where it cannot be (ETIM xChange). Fixtures are written here.
 */

const LIST = [
  price('net_list', '10.00', '<LOWER_BOUND>1</LOWER_BOUND>'),
  price('Listenpreis', '12.00'),
  price('Preis (brutto)', '14.28'),
  price('net_customer', '-2.50'),
].join('');

const supplierFile = () => priceFile('Pfandkiste', `${START}${LIST}`);

const EXPECTED = [
  ['net_list', '10.00'],
  ['udp_Listenpreis', '12.00'],
  ['udp_Preisbrutto', '14.28'],
  ['net_customer', '-2.50'],
];

const typesAndAmounts = (read: Awaited<ReturnType<typeof importText>>['read']) =>
  read.prices.map((p) => [p.type, p.amount]);

describe('prices of any type and credits through BMEcat', () => {
  it('keeps a price of a type BMEcat does not have as udp_, and a negative amount, with a price_type warning', async () => {
    const session = await makeSession();
    const { read, report } = await importText(session, supplierFile(), 'Treue');
    expect(typesAndAmounts(read)).toEqual(EXPECTED);
    expect(read.price).toBe('10.00');
    expect(report.map((r) => [r[4], r[5]])).toEqual([
      ['prices.1.type: price type "Listenpreis" is not BMEcat\'s: kept as udp_Listenpreis', 'price_type'],
      ['prices.2.type: price type "Preis (brutto)" is not BMEcat\'s: kept as udp_Preisbrutto', 'price_type'],
    ]);
  });

  it.each([['BMEcat'], ['BMEcat12'], ['CSV']])('writes both back in %s and reads the export equal', async (format) => {
    const session = await makeSession();
    const first = await importText(session, supplierFile(), 'Treue');
    const { xml, warnings } = await exportText(session, first.catalogId, format);
    if (format !== 'CSV') {
      expect(xml).toContain('price_type="udp_Listenpreis"><PRICE_AMOUNT>12.00</PRICE_AMOUNT>');
      expect(xml).toContain('<PRICE_AMOUNT>-2.50</PRICE_AMOUNT>');
    }
    expect(warnings.filter((w) => /Listenpreis|credit|-2\.50/.test(w))).toEqual([]);
    const again = await importText(session, xml, 'Wieder', format === 'CSV' ? 'catalog.csv' : undefined);
    expect(typesAndAmounts(again.read)).toEqual(EXPECTED);
    expect(again.read.price).toBe('10.00');
  });

  it('writes the credit in the ETIM profile and reports what its schema refuses; xChange reports the credit', async () => {
    const session = await makeSession();
    const first = await importText(session, supplierFile(), 'Treue');
    const etim = await exportText(session, first.catalogId, 'BMEcat-ETIM');
    expect(etim.xml).toContain('price_type="net_customer"><PRICE_AMOUNT>-2.50</PRICE_AMOUNT>');
    expect(etim.warnings.join('\n')).toMatch(
      /price type udp_Listenpreis is not a ETIM guideline price type: that price left out/,
    );
    const xchange = await exportText(session, first.catalogId, 'ETIMxChange');
    expect(xchange.xml).not.toContain('-2.50');
    expect(xchange.warnings.join('\n')).toMatch(/credit price -2\.50 left out: ETIM xChange amounts are not negative/);
  });

  it('reads a list whose first price is a credit with the next price as the product price', async () => {
    const session = await makeSession();
    const xml = priceFile('Gutschrift', `${price('net_list', '-1.00')}${price('net_list', '3.00')}`);
    const { read, report } = await importText(session, xml, 'Gutschrift');
    expect(typesAndAmounts(read)).toEqual([
      ['net_list', '-1.00'],
      ['net_list', '3.00'],
    ]);
    expect(read.price).toBe('3.00');
    expect(report).toEqual([]);
  });

  it('takes a credit through SetPrices and leaves it out of the sync record, where a shop has no negative price', () => {
    const list = [
      { type: 'net_list', amount: '10.00' },
      { type: 'net_customer', amount: '-2,50' },
    ].map((p) => PriceDto.parse(p));
    const { rows, price } = toStored(list);
    expect(price).toBe('10.00');
    expect(rows.map((r) => r.amount)).toEqual([null, '-2.50']);
    expect(syncPriceList(rows, '10.00').map((p) => [p.type, p.amount])).toEqual([['net_list', '10.00']]);
    expect(PriceDto.safeParse({ type: 'net_list', amount: '--1' }).success).toBe(false);
  });
});

const flag = (type: string, on: string) => `<PRICE_FLAG type="${type}">${on}</PRICE_FLAG>`;
const flagsOf = (read: Awaited<ReturnType<typeof importText>>['read']) =>
  read.prices.map((p) => [p.type, p.amount, p.flags ?? null]);

/** A 2005 price with its own flags (incl_freight, incl_packing false) and one without. */
const flaggedFile = () =>
  priceFile(
    'Fracht',
    `${START}${price('net_list', '10.00', flag('incl_freight', 'true') + flag('incl_packing', 'false'))}${price('nrp', '15.00')}`,
  );

const FLAGGED = [
  ['net_list', '10.00', { incl_freight: true, incl_packing: false }],
  ['nrp', '15.00', null],
];

describe('PRICE_FLAG', () => {
  it('keeps the flags of each BMEcat 2005 price and writes them back in 2005 and CSV', async () => {
    const session = await makeSession();
    const first = await importText(session, flaggedFile(), 'Fracht');
    expect(flagsOf(first.read)).toEqual(FLAGGED);
    expect(first.report).toEqual([]);
    const bmecat = await exportText(session, first.catalogId, 'BMEcat');
    expect(bmecat.xml).toContain(
      '<PRICE_AMOUNT>10.00</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY><PRICE_FLAG type="incl_freight">true</PRICE_FLAG><PRICE_FLAG type="incl_packing">false</PRICE_FLAG></PRODUCT_PRICE>',
    );
    expect(flagsOf((await importText(session, bmecat.xml, 'Wieder')).read)).toEqual(FLAGGED);
    const csv = await exportText(session, first.catalogId, 'CSV');
    expect(csv.xml).toContain('flags=incl_freight:1,incl_packing:0');
    expect(flagsOf((await importText(session, csv.xml, 'Wieder', 'catalog.csv')).read)).toEqual(FLAGGED);
  });

  it('reports the flags where the target has no PRICE_FLAG on a price: BMEcat 1.2, the ETIM profile, xChange', async () => {
    const session = await makeSession();
    const first = await importText(session, flaggedFile(), 'Fracht');
    const cases = [
      [
        'BMEcat12',
        'BMEcat 1.2 has no PRICE_FLAG on a price: the flags of the net_list price (incl_freight, incl_packing) left out',
      ],
      [
        'BMEcat-ETIM',
        'ETIM guideline has no PRICE_FLAG on a price: the flags of the net_list price (incl_freight, incl_packing) left out',
      ],
      ['ETIMxChange', 'price flags (PRICE_FLAG) left out: ETIM xChange has none'],
    ];
    for (const [format, warning] of cases) {
      const { xml, warnings } = await exportText(session, first.catalogId, format!);
      expect(xml).not.toContain('PRICE_FLAG');
      expect(warnings.join('\n'), format).toContain(warning);
    }
  });

  it("gives every price of a 1.2 file the HEADER's PRICE_FLAGs, and keeps the price when a flag does not check", async () => {
    const session = await makeSession();
    const header = file({
      root: 'version="1.2"',
      records: [
        article(
          'BASE-1',
          'Zoll',
          '<ARTICLE_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></ARTICLE_ORDER_DETAILS><ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_list"><PRICE_AMOUNT>7.00</PRICE_AMOUNT></ARTICLE_PRICE><ARTICLE_PRICE price_type="nrp"><PRICE_AMOUNT>9.00</PRICE_AMOUNT></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS>',
        ),
      ],
    }).replace('</CATALOG></HEADER>', `${flag('incl_duty', 'true')}</CATALOG></HEADER>`);
    const { read, catalogId } = await importText(session, header, 'Zoll');
    expect(flagsOf(read)).toEqual([
      ['net_list', '7.00', { incl_duty: true }],
      ['nrp', '9.00', { incl_duty: true }],
    ]);
    // Every price shares the flag: the 1.2 export writes it once in the HEADER (1.2's only place), reporting nothing.
    const again = await exportText(session, catalogId, 'BMEcat12');
    expect(again.xml).toContain('<CURRENCY>EUR</CURRENCY><PRICE_FLAG type="incl_duty">true</PRICE_FLAG></CATALOG>');
    expect(again.xml.match(/PRICE_FLAG/g)).toHaveLength(2);
    expect(again.warnings.join('\n')).not.toContain('PRICE_FLAG');
    expect(flagsOf((await importText(session, again.xml, 'Wieder')).read)).toEqual([
      ['net_list', '7.00', { incl_duty: true }],
      ['nrp', '9.00', { incl_duty: true }],
    ]);
    // A product written with its plain price (no list) would take the HEADER's flag: none there, nothing claimed.
    await makeProduct(session.tenant, catalogId, { price: '3.00' });
    const mixed = await exportText(session, catalogId, 'BMEcat12');
    expect(mixed.xml).not.toContain('PRICE_FLAG');
    expect(mixed.warnings.join('\n')).toContain(
      'BMEcat 1.2 has no PRICE_FLAG on a price: the flags of the net_list price',
    );
    const bad = flaggedFile().replace('type="incl_packing"', 'type="incl packing!"');
    const tolerant = await importText(session, bad, 'Schlecht');
    expect(flagsOf(tolerant.read)).toEqual([
      ['net_list', '10.00', null],
      ['nrp', '15.00', null],
    ]);
    expect(tolerant.report.map((r) => r[5])).toEqual(['price_flag']);
  });
});

const FORMULA = { id: 'F-Kupfer', parameters: [{ symbol: 'cu', value: '8,75 EUR/kg' }] };

/** A 2005 price with an amount and one by PRICE_FORMULA (a copper surcharge; its value holds a `,` and `/`). */
const formulaFile = () =>
  priceFile(
    'Kabel',
    `${START}${price('net_list', '10.00')}<PRODUCT_PRICE price_type="net_customer"><PRICE_FORMULA><FORMULA_IDREF>F-Kupfer</FORMULA_IDREF><PARAMETERS><PARAMETER><PARAMETER_SYMBOLREF>cu</PARAMETER_SYMBOLREF><PARAMETER_VALUE>8,75 EUR/kg</PARAMETER_VALUE></PARAMETER></PARAMETERS></PRICE_FORMULA><PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE>`,
  );

const formulasOf = (read: Awaited<ReturnType<typeof importText>>['read']) =>
  read.prices.map((p) => [p.type, p.amount, p.formula ?? null]);

const WITH_FORMULA = [
  ['net_list', '10.00', null],
  ['net_customer', null, FORMULA],
];

describe('PRICE_FORMULA', () => {
  it('keeps a 2005 price by formula and writes it back in 2005 and CSV; it is never the product price', async () => {
    const session = await makeSession();
    const first = await importText(session, formulaFile(), 'Formel');
    expect(formulasOf(first.read)).toEqual(WITH_FORMULA);
    expect(first.read.price).toBe('10.00');
    expect(first.report).toEqual([]);
    const bmecat = await exportText(session, first.catalogId, 'BMEcat');
    expect(bmecat.xml).toContain(
      '<PRODUCT_PRICE price_type="net_customer"><PRICE_FORMULA><FORMULA_IDREF>F-Kupfer</FORMULA_IDREF><PARAMETERS><PARAMETER><PARAMETER_SYMBOLREF>cu</PARAMETER_SYMBOLREF><PARAMETER_VALUE>8,75 EUR/kg</PARAMETER_VALUE></PARAMETER></PARAMETERS></PRICE_FORMULA><PRICE_CURRENCY>EUR</PRICE_CURRENCY>',
    );
    expect(bmecat.warnings.join('\n')).toContain('price formula F-Kupfer written by reference');
    expect(formulasOf((await importText(session, bmecat.xml, 'Wieder')).read)).toEqual(WITH_FORMULA);
    const csv = await exportText(session, first.catalogId, 'CSV');
    expect(formulasOf((await importText(session, csv.xml, 'Wieder', 'catalog.csv')).read)).toEqual(WITH_FORMULA);
  });

  it('reports the price by formula where the target has no PRICE_FORMULA and writes the others', async () => {
    const session = await makeSession();
    const first = await importText(session, formulaFile(), 'Formel');
    for (const [format, warning] of [
      ['BMEcat12', 'BMEcat 1.2 has no PRICE_FORMULA: the net_customer price by formula F-Kupfer left out'],
      ['BMEcat-ETIM', 'ETIM guideline has no PRICE_FORMULA: the net_customer price by formula F-Kupfer left out'],
      ['ETIMxChange', 'price by formula F-Kupfer (PRICE_FORMULA) left out: ETIM xChange has none'],
    ]) {
      const { xml, warnings } = await exportText(session, first.catalogId, format!);
      expect(xml).not.toContain('F-Kupfer');
      expect(xml).toMatch(/10\.00?/);
      expect(warnings.join('\n'), format).toContain(warning);
    }
  });

  it('refuses through SetPrices a price with both an amount and a formula', () => {
    const both = PriceDto.safeParse({ type: 'net_list', amount: '1', formula: { id: 'F1' } });
    expect(both.success).toBe(false);
    expect(PriceDto.safeParse({ type: 'net_list', formula: { id: 'F1' } }).success).toBe(true);
    expect(PriceDto.safeParse({ type: 'net_list' }).success).toBe(false);
  });
});

describe('flags, formula and credits through SetPrices and the history', () => {
  it('answers them on reads, records them in the history and a restore brings them back', async () => {
    const session = await makeSession();
    const tenant = asActor(session.tenant);
    const catalog = await makeCatalog(session.tenant);
    const product = await makeProduct(session.tenant, catalog.catalogId, { sku: 'P-1', price: '7.00' });
    const list = [
      { type: 'net_list', amount: '10.00', flags: { incl_freight: true } },
      { type: 'net_customer', formula: FORMULA },
      { type: 'net_customer', amount: '-1.50' },
    ];
    const post = (path: string, body: Record<string, unknown>) =>
      call('POST', `/api/Catalog/${path}`, {
        cookie: session.cookie,
        body: { departmentId: session.departmentId, ...body },
      });
    const set = await post('SetPrices', { productId: product.productId, prices: list });
    expect(set.status, set.text).toBe(200);
    expect(set.json.price).toBe('10.00');
    const shape = (read: { prices: { type: string; amount: string | null; flags?: unknown; formula?: unknown }[] }) =>
      read.prices.map((p) => [p.type, p.amount, p.flags ?? null, p.formula ?? null]);
    const expected = [
      ['net_list', '10.00', { incl_freight: true }, null],
      ['net_customer', null, null, FORMULA],
      ['net_customer', '-1.50', null, null],
    ];
    expect(shape(set.json)).toEqual(expected);
    const [change] = (
      await call('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`, { cookie: session.cookie })
    ).json.items;
    await setPrices(db(), tenant, {
      departmentId: session.departmentId,
      productId: product.productId,
      prices: [{ type: 'nrp', amount: '5.00' }],
    });
    const restored = await post('RestoreVersion', { elementId: product.productId, versionId: change.versionId });
    expect(restored.status, restored.text).toBe(200);
    expect(shape(await getPrices(db(), tenant, product.productId))).toEqual(expected);
    const both = await post('SetPrices', {
      productId: product.productId,
      prices: [{ type: 'net_list', amount: '1', formula: FORMULA }],
    });
    expect(both.status).toBe(400);
    expect(both.json.error).toMatch(/an amount or a formula, not both/);
    expect(shape(await getPrices(db(), tenant, product.productId))).toEqual(expected);
  });
});
