/**
 * The demo company's technical catalog: electrical wholesale assortments with category trees
 * three levels deep, master products with variants, typed attribute values and ETIM features.
 * Manufacturer names and GTINs are fictitious (GTINs carry valid check digits).
 */

export interface DemoVariant {
  skuSuffix: string;
  name: string;
  price: string;
  features: Record<string, string>;
  values?: Record<string, string>;
}

export interface DemoProduct {
  sku: string;
  name: string;
  description: string;
  manufacturerName: string;
  unit: string;
  price: string;
  etimClass?: string;
  eclassClass?: string;
  features?: Record<string, string>;
  values?: Record<string, string>;
  variants?: DemoVariant[];
}

export interface DemoCategory {
  name: string;
  children?: DemoCategory[];
  products?: DemoProduct[];
}

export interface DemoCatalog {
  name: string;
  catalogType: string;
  catalogVersion: string;
  tree: DemoCategory[];
}

const mcbVariants = (characteristic: 'B' | 'C', poles: number, base: number): DemoVariant[] =>
  [6, 10, 13, 16, 20, 25, 32].map((amps, i) => ({
    skuSuffix: `${characteristic}${amps}`,
    name: `Leitungsschutzschalter ${characteristic}${amps}, ${poles}-polig`,
    price: (base + i * 0.35).toFixed(2),
    features: { EF000133: String(amps) },
  }));

const cableVariants = (cores: number, sections: number[], basePerMetre: number): DemoVariant[] =>
  sections.map((mm2, i) => ({
    skuSuffix: `${cores}X${String(mm2).replace('.', '')}`,
    name: `NYM-J ${cores}x${String(mm2).replace('.', ',')} mm², Ring 100 m`,
    price: ((basePerMetre + i * 0.42) * 100).toFixed(2),
    features: { EF000003: String(mm2), EF000030: '100' },
    values: { packaging: 'ring' },
  }));

const lampVariants = (socket: string, watts: number[], base: number): DemoVariant[] =>
  watts.flatMap((w, i) =>
    [2700, 4000].map((kelvin, j) => ({
      skuSuffix: `${w}W-${kelvin}K`,
      name: `LED-Lampe ${socket} ${w} W ${kelvin} K`,
      price: (base + i * 1.2 + j * 0.3).toFixed(2),
      features: { EF000040: String(w), EF000004: String(kelvin) },
    })),
  );

export const DEMO_CATALOGS: DemoCatalog[] = [
  {
    name: 'Elektroinstallation 2026',
    catalogType: 'full',
    catalogVersion: '2026.1',
    tree: [
      {
        name: 'Schutzgeräte',
        children: [
          {
            name: 'Leitungsschutzschalter',
            children: [
              {
                name: 'B-Charakteristik',
                products: [1, 3].map((poles) => ({
                  sku: `VOL-LS-B${poles}`,
                  name: `Leitungsschutzschalter B, ${poles}-polig, 6 kA`,
                  description: `Leitungsschutzschalter nach DIN EN 60898-1, Auslösecharakteristik B, ${poles}-polig, Schaltvermögen 6 kA, für Hutschiene.`,
                  manufacturerName: 'Voltana Schaltgeräte',
                  unit: 'C62',
                  price: poles === 1 ? '3.95' : '14.90',
                  etimClass: 'EC000042',
                  eclassClass: '27141190',
                  features: {
                    EF000008: poles === 1 ? '230' : '400',
                    EF000010: String(poles),
                    EF000073: 'EV000040',
                    EF000049: 'EV000383',
                    EF000001: '-25..55',
                  },
                  values: { weight_kg: poles === 1 ? '0.12' : '0.36', country_of_origin: 'DE' },
                  variants: mcbVariants('B', poles, poles === 1 ? 3.95 : 14.9),
                })),
              },
              {
                name: 'C-Charakteristik',
                products: [1, 3].map((poles) => ({
                  sku: `VOL-LS-C${poles}`,
                  name: `Leitungsschutzschalter C, ${poles}-polig, 10 kA`,
                  description: `Leitungsschutzschalter Charakteristik C für Motoren und Transformatoren, ${poles}-polig, 10 kA.`,
                  manufacturerName: 'Voltana Schaltgeräte',
                  unit: 'C62',
                  price: poles === 1 ? '5.40' : '19.80',
                  etimClass: 'EC000042',
                  features: {
                    EF000008: poles === 1 ? '230' : '400',
                    EF000010: String(poles),
                    EF000073: 'EV000041',
                    EF000049: 'EV000383',
                    EF000001: '-25..55',
                  },
                  values: { weight_kg: poles === 1 ? '0.13' : '0.38', country_of_origin: 'DE' },
                  variants: mcbVariants('C', poles, poles === 1 ? 5.4 : 19.8),
                })),
              },
            ],
          },
          {
            name: 'Fehlerstromschutzschalter',
            children: [
              {
                name: 'Typ A',
                products: [25, 40, 63].map((amps) => ({
                  sku: `VOL-FI-A${amps}`,
                  name: `FI-Schutzschalter Typ A, 4-polig, ${amps} A, 30 mA`,
                  description: `Fehlerstromschutzschalter Typ A, 4-polig, Bemessungsstrom ${amps} A, Bemessungsfehlerstrom 30 mA.`,
                  manufacturerName: 'Voltana Schaltgeräte',
                  unit: 'C62',
                  price: (29.9 + amps * 0.4).toFixed(2),
                  etimClass: 'EC000044',
                  features: {
                    EF000008: '400',
                    EF000010: '4',
                    EF000133: String(amps),
                    EF000048: '30',
                    EF000049: 'EV000383',
                  },
                  values: { weight_kg: '0.45', country_of_origin: 'AT' },
                })),
              },
            ],
          },
        ],
      },
      {
        name: 'Schalter und Steckdosen',
        children: [
          {
            name: 'Steckdosen',
            children: [
              {
                name: 'Schutzkontakt-Steckdosen',
                products: ['Unterputz', 'Aufputz IP44'].map((kind, i) => ({
                  sku: `HAU-SD-${i === 0 ? 'UP' : 'AP44'}`,
                  name: `Schutzkontakt-Steckdose ${kind}`,
                  description: `SCHUKO-Steckdose ${kind}, 16 A 250 V, mit erhöhtem Berührungsschutz & Steckklemmen <für 1,5–2,5 mm²>.`,
                  manufacturerName: 'Hausner Elektro',
                  unit: 'C62',
                  price: i === 0 ? '4.20' : '9.80',
                  etimClass: 'EC001744',
                  features: {
                    EF000137: i === 0 ? 'EV000454' : 'EV000455',
                    EF000049: i === 0 ? 'EV000385' : 'EV000384',
                    EF000133: '16',
                  },
                  variants: ['EV000080', 'EV000082'].map((colour, j) => ({
                    skuSuffix: j === 0 ? 'WS' : 'SW',
                    name: `Schutzkontakt-Steckdose ${kind}, ${j === 0 ? 'reinweiß' : 'schwarz'}`,
                    price: (Number(i === 0 ? 4.2 : 9.8) + j * 0.6).toFixed(2),
                    features: { EF000007: colour },
                  })),
                })),
              },
            ],
          },
          {
            name: 'Schalter',
            children: [
              {
                name: 'Wippschalter',
                products: ['Aus-/Wechselschalter', 'Serienschalter', 'Kreuzschalter'].map((kind, i) => ({
                  sku: `HAU-WS-${i + 1}`,
                  name: `${kind} Unterputz`,
                  description: `${kind} für Unterputzmontage, 10 AX 250 V~.`,
                  manufacturerName: 'Hausner Elektro',
                  unit: 'C62',
                  price: (5.1 + i * 1.7).toFixed(2),
                  etimClass: 'EC000029',
                  features: { EF000137: 'EV000454', EF000049: 'EV000385', EF000010: '1' },
                  variants: ['EV000080', 'EV000081'].map((colour, j) => ({
                    skuSuffix: j === 0 ? 'WS' : 'GR',
                    name: `${kind} Unterputz, ${j === 0 ? 'reinweiß' : 'grau'}`,
                    price: (5.1 + i * 1.7 + j * 0.4).toFixed(2),
                    features: { EF000007: colour },
                  })),
                })),
              },
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'Installationsmaterial',
    catalogType: 'full',
    catalogVersion: '2026.1',
    tree: [
      {
        name: 'Verbindungstechnik',
        children: [
          {
            name: 'Klemmen',
            children: [
              {
                name: 'Verbindungsklemmen',
                products: [2, 3, 5].flatMap((poles) =>
                  ['0,2–4 mm²', '0,5–6 mm²'].flatMap((range, r) =>
                    ['transparent', 'grau'].map((colour, c) => ({
                      sku: `KLF-VK-${poles}-${r + 1}-${c + 1}`,
                      name: `Verbindungsklemme ${poles}-Leiter ${range}, ${colour}`,
                      description: `Hebelklemme für ${poles} Leiter, ${range}, eindrähtig, feindrähtig und mehrdrähtig.`,
                      manufacturerName: 'Klemmfix',
                      unit: 'C62',
                      price: (0.28 + poles * 0.06 + r * 0.05).toFixed(2),
                      values: { packaging: 'box', weight_kg: '0.01' },
                    })),
                  ),
                ),
              },
            ],
          },
          {
            name: 'Befestigung',
            children: [
              {
                name: 'Kabelbinder',
                products: [100, 140, 200, 300, 370].flatMap((length) =>
                  ['natur', 'schwarz UV-beständig'].map((colour, c) => ({
                    sku: `KLF-KB-${length}-${c === 0 ? 'N' : 'S'}`,
                    name: `Kabelbinder ${length} x ${length > 200 ? '4,8' : '3,6'} mm, ${colour}, 100 Stück`,
                    description: `Kabelbinder aus Polyamid 6.6, Länge ${length} mm, Beutel mit 100 Stück.`,
                    manufacturerName: 'Klemmfix',
                    unit: 'PA',
                    price: (1.2 + length / 100).toFixed(2),
                    values: { packaging: 'box' },
                  })),
                ),
              },
              {
                name: 'Abzweigdosen',
                products: ['IP54', 'IP65'].flatMap((ip) =>
                  (
                    [
                      [75, 75],
                      [100, 100],
                      [150, 110],
                      [190, 140],
                    ] as const
                  ).map(([w, h]) => ({
                    sku: `HAU-AD-${ip}-${w}`,
                    name: `Abzweigdose Aufputz ${w}x${h} mm, ${ip}`,
                    description: `Feuchtraum-Abzweigdose ${ip} mit Steckdichtungen, halogenfrei.`,
                    manufacturerName: 'Hausner Elektro',
                    unit: 'C62',
                    price: (1.9 + w / 40).toFixed(2),
                    values: { weight_kg: (w / 1000).toFixed(2) },
                  })),
                ),
              },
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'Kabel und Leitungen',
    catalogType: 'full',
    catalogVersion: '2026.1',
    tree: [
      {
        name: 'Installationsleitungen',
        children: [
          {
            name: 'NYM-J Mantelleitungen',
            children: [
              {
                name: 'Ringware',
                products: [3, 5].map((cores) => ({
                  sku: `KWN-NYM-${cores}`,
                  name: `Mantelleitung NYM-J ${cores}-adrig`,
                  description: `PVC-Mantelleitung NYM-J, ${cores} Adern, grau, für feste Verlegung in trockenen, feuchten und nassen Räumen.`,
                  manufacturerName: 'Kabelwerk Nord',
                  unit: 'MTR',
                  price: cores === 3 ? '0.89' : '1.39',
                  etimClass: 'EC000057',
                  eclassClass: '27060190',
                  features: { EF000010: String(cores), EF000007: 'EV000081', EF000139: 'false', EF000008: '500' },
                  values: { temperature_range: '-5..70', packaging: 'ring' },
                  variants: cableVariants(cores, [1.5, 2.5, 4, 6], cores === 3 ? 0.89 : 1.39),
                })),
              },
            ],
          },
          {
            name: 'Halogenfreie Leitungen',
            children: [
              {
                name: 'NHXMH',
                products: [3, 5].map((cores) => ({
                  sku: `KWN-NHXMH-${cores}`,
                  name: `Halogenfreie Mantelleitung NHXMH-J ${cores}x1,5`,
                  description: 'Halogenfreie, flammwidrige Installationsleitung für öffentliche Gebäude.',
                  manufacturerName: 'Kabelwerk Nord',
                  unit: 'MTR',
                  price: cores === 3 ? '1.49' : '2.19',
                  etimClass: 'EC000057',
                  features: {
                    EF000010: String(cores),
                    EF000003: '1.5',
                    EF000007: 'EV000080',
                    EF000139: 'true',
                    EF000008: '500',
                  },
                  values: { temperature_range: '-15..70', packaging: 'drum' },
                })),
              },
            ],
          },
        ],
      },
      {
        name: 'Erdkabel',
        children: [
          {
            name: 'NYY-J',
            children: [
              {
                name: 'Trommelware',
                products: [3, 4, 5].map((cores) => ({
                  sku: `KWN-NYY-${cores}`,
                  name: `Erdkabel NYY-J ${cores}x2,5 mm²`,
                  description: 'Energiekabel NYY-J zur Verlegung in Erde, Wasser, im Freien und in Innenräumen.',
                  manufacturerName: 'Kabelwerk Nord',
                  unit: 'MTR',
                  price: (1.6 + cores * 0.35).toFixed(2),
                  etimClass: 'EC000057',
                  features: {
                    EF000010: String(cores),
                    EF000003: '2.5',
                    EF000007: 'EV000082',
                    EF000139: 'false',
                    EF000008: '1000',
                  },
                  values: { packaging: 'drum', weight_kg: (0.15 + cores * 0.03).toFixed(2) },
                })),
              },
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'Beleuchtung',
    catalogType: 'full',
    catalogVersion: '2026.1',
    tree: [
      {
        name: 'Leuchtmittel',
        children: [
          {
            name: 'LED-Lampen',
            children: [
              {
                name: 'Sockel E27',
                products: [
                  { sku: 'LUM-E27-A60', name: 'LED-Lampe E27 A60 matt', socket: 'E27', watts: [6, 9, 11] },
                  { sku: 'LUM-E27-FIL', name: 'LED-Filamentlampe E27 klar', socket: 'E27', watts: [4, 7] },
                ].map((p) => ({
                  sku: p.sku,
                  name: p.name,
                  description: `${p.name}, ersetzt Glühlampen bis 75 W, Lebensdauer 15.000 h.`,
                  manufacturerName: 'Lumara Licht',
                  unit: 'C62',
                  price: '3.49',
                  etimClass: 'EC000125',
                  features: { EF000008: '230', EF000005: 'false', EF000137: 'EV000454' },
                  values: { weight_kg: '0.05' },
                  variants: lampVariants(p.socket, p.watts, 3.49),
                })),
              },
              {
                name: 'Sockel GU10',
                products: [
                  {
                    sku: 'LUM-GU10',
                    name: 'LED-Reflektorlampe GU10 36°',
                    description: 'LED-Reflektorlampe GU10, Abstrahlwinkel 36°, dimmbar.',
                    manufacturerName: 'Lumara Licht',
                    unit: 'C62',
                    price: '4.99',
                    etimClass: 'EC000125',
                    features: { EF000008: '230', EF000005: 'true', EF000137: 'EV000454' },
                    variants: lampVariants('GU10', [4, 6], 4.99),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

/** The second company's small catalog (tenant-isolation checks). */
export const OTHER_CATALOG: DemoCatalog = {
  name: 'Zweite Handel Sortiment',
  catalogType: 'full',
  catalogVersion: '1.0',
  tree: [
    {
      name: 'Werkzeug',
      children: [
        {
          name: 'Zangen',
          children: [
            {
              name: 'Abisolierzangen',
              products: [
                {
                  sku: 'ZH-AZ-1',
                  name: 'Abisolierzange 0,2–6 mm²',
                  description: 'Automatische Abisolierzange.',
                  manufacturerName: 'Zangenbau Süd',
                  unit: 'C62',
                  price: '24.90',
                },
                {
                  sku: 'ZH-AZ-2',
                  name: 'Kabelmesser mit Hakenklinge',
                  description: 'VDE-Kabelmesser.',
                  manufacturerName: 'Zangenbau Süd',
                  unit: 'C62',
                  price: '12.50',
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};
