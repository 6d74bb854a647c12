import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readXChangeProducts, XCHANGE_START, type XChangeRecord } from '../src/imports/read/xchange-reader';
import { newId } from '../src/kernel/ids';

/** Products whose strings hold everything the scanner must not mistake for structure. */
function products(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    ProductIdentification: { ManufacturerName: `Maker "${i}" \\ {not an object}`, ManufacturerProductNumber: `P-${i}` },
    ProductDetails: {
      ProductDescriptions: [
        {
          DescriptionLanguage: 'de-DE',
          MinimalProductDescription: `Schalter ${i} ] } [ { "zitiert" \\" ü ß 🔌`,
          FullProductDescription: `${'Lange Beschreibung mit \\ und "Anführung" '.repeat(20)}${i}`,
        },
        { DescriptionLanguage: 'en-GB', MinimalProductDescription: `Switch ${i}\n\ttab`, ProductKeyword: ['a', 'b]'] },
      ],
    },
    TradeItem: [{ ItemIdentification: { SupplierItemNumber: `S-${i}` }, Ordering: { MinimumOrderQuantity: i + 1 } }],
  }));
}

async function readAll(key: string, from = XCHANGE_START): Promise<XChangeRecord[]> {
  const out: XChangeRecord[] = [];
  for await (const piece of readXChangeProducts(env.FILES, key, from)) out.push(...piece);
  return out;
}

describe('xChange reader', () => {
  it('reads every Product whole across chunk boundaries, with quotes, backslashes and brackets in strings', async () => {
    const written = products(400);
    const file = JSON.stringify(
      {
        SchemaVersion: '2.0',
        Language: ['de-DE', 'en-GB'],
        CurrencyCode: 'EUR',
        Supplier: [{ SupplierName: 'Lieferant "A" {x}', Product: written }],
      },
      null,
      1,
    );
    expect(file.length).toBeGreaterThan(500_000);
    const key = `tmp/xchange-reader/${newId()}.json`;
    await env.FILES.put(key, file);

    const records = await readAll(key);
    expect(records.map((r) => r.product)).toEqual(written);
    expect(records[399]!.path).toBe('$.Supplier[0].Product[399]');
    expect(records[0]!.envelope).toMatchObject({ languages: ['de-DE', 'en-GB'], currency: 'EUR' });

    // Resuming after the 200th Product reads exactly the other 200.
    const rest = await readAll(key, records[199]!.after);
    expect(rest.map((r) => r.product)).toEqual(written.slice(200));
    expect(rest[0]!.path).toBe('$.Supplier[0].Product[200]');
  });

  it('refuses a Product that is not valid JSON, naming the byte', async () => {
    const key = `tmp/xchange-reader/${newId()}.json`;
    await env.FILES.put(key, '{"SchemaVersion":"2.0","Supplier":[{"Product":[{"a":"x"},{"b":tru}]}]}');
    await expect(readAll(key)).rejects.toThrow(/byte \d+: not valid JSON/);
  });
});
