import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import { conversionFactor, convertValue, unitConversion } from '../src/kernel/unit-factors';
import { runUpgradeSlice } from '../src/releases/upgrade-job';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease } from './helpers/release-fixtures';

const csv = (lines: string[]) => ({ content: `${lines.join('\n')}\n` });

/**
 * Two ETIM releases (ETIM's CSV layout) in which class EC000905 keeps its features but changes
 * their units: width mm -> cm, a temperature-free length range mm -> m (with a UNECE column in
 * the new release), and a weight kg -> V, which no table converts.
 */
const release = (units: string[], cf: string[]) => ({
  'U.csv': csv(units),
  'C.csv': csv(['ARTCLASSID;ARTCLASSDESC', 'EC000905;Cable tie']),
  'F.csv': csv(['FEATUREID;FEATUREDESC', 'EF000008;Width', 'EF000011;Length range', 'EF000012;Weight']),
  'M.csv': csv(['ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR', ...cf]),
});
const oldRelease = () =>
  release(
    ['UNITOFMEASID;UNITDESC', 'EU570448;mm', 'EU570002;kg'],
    ['101;EC000905;EF000008;N;EU570448;1', '102;EC000905;EF000011;R;EU570448;2', '103;EC000905;EF000012;N;EU570002;3'],
  );
const newRelease = () =>
  release(
    ['UNITOFMEASID;UNITDESC;UNECE', 'EU570001;cm;CMT', 'EU570003;metre;MTR', 'EU570126;V;VLT'],
    ['101;EC000905;EF000008;N;EU570001;1', '102;EC000905;EF000011;R;EU570003;2', '103;EC000905;EF000012;N;EU570126;3'],
  );

describe('unit conversion in release upgrades', () => {
  it('the unit table converts within a quantity only, by UN/ECE code or symbol', () => {
    expect(conversionFactor(['mm'], ['CMT'])).toBeCloseTo(0.1);
    expect(conversionFactor(['KGM'], ['g'])).toBe(1000);
    expect(conversionFactor(['mm²'], ['cm²'])).toBeCloseTo(0.01);
    expect(conversionFactor(['l'], ['ml'])).toBeCloseTo(1000);
    expect(conversionFactor(['kg'], ['V'])).toBeNull();
    expect(conversionFactor(['parsec'], ['m'])).toBeNull();
    expect(convertValue('12.5', 0.1)).toBe('1.25');
    expect(convertValue('-5..40', 0.001)).toBe('-0.005..0.04');
    expect(convertValue('schwer', 0.1)).toBeNull();
  });

  it('pressure, frequency, energy, speed and illuminance convert by their UN/ECE codes and symbols', () => {
    expect(conversionFactor(['BAR'], ['KPA'])).toBe(100);
    expect(conversionFactor(['MBR'], ['PAL'])).toBe(100);
    expect(conversionFactor(['hPa'], ['mbar'])).toBe(1);
    expect(conversionFactor(['PS'], ['KPA'])).toBe(6.89475729317);
    expect(conversionFactor(['bar'], ['psi'])).toBe(14.503773773);
    expect(conversionFactor(['MPA'], ['N/mm²'])).toBe(1);
    expect(conversionFactor(['KHZ'], ['HTZ'])).toBe(1000);
    expect(conversionFactor(['MHz'], ['A86'])).toBe(0.001);
    expect(conversionFactor(['KWH'], ['WHR'])).toBe(1000);
    expect(conversionFactor(['WHR'], ['JOU'])).toBe(3600);
    expect(conversionFactor(['kWh'], ['KJO'])).toBe(3600);
    expect(conversionFactor(['KMH'], ['MTS'])).toBe(0.277777777778);
    expect(conversionFactor(['m/s'], ['km/h'])).toBe(3.6);
    expect(conversionFactor(['KLX'], ['lx'])).toBe(1000);
    expect(conversionFactor(['LUM'], ['lm'])).toBe(1);
    expect(convertValue('2.5..10', conversionFactor(['BAR'], ['KPA'])!)).toBe('250..1000');
    expect(conversionFactor(['BAR'], ['HTZ'])).toBeNull();
    expect(conversionFactor(['KWH'], ['KWT'])).toBeNull();
    expect(conversionFactor(['LUX'], ['LUM'])).toBeNull();
  });

  it('temperatures convert with their offsets (CEL, FAH, KEL and their symbols); a factor alone refuses them', () => {
    expect(unitConversion(['CEL'], ['FAH'])).toEqual({ factor: 1.8, offset: 32 });
    expect(unitConversion(['°F'], ['°C'])).toEqual({ factor: 0.555555555556, offset: -17.7777777778 });
    expect(unitConversion(['KEL'], ['°C'])).toEqual({ factor: 1, offset: -273.15 });
    expect(convertValue('-40', 1.8, 32)).toBe('-40');
    expect(convertValue('100', 1.8, 32)).toBe('212');
    expect(convertValue('0..100', 1, 273.15)).toBe('273.15..373.15');
    const f = unitConversion(['FAH'], ['CEL'])!;
    expect(convertValue('212', f.factor, f.offset)).toBe('100');
    expect(conversionFactor(['CEL'], ['FAH'])).toBeNull();
    expect(conversionFactor(['CEL'], ['KEL'])).toBeNull();
    expect(unitConversion(['CEL'], ['mm'])).toBeNull();
  });

  it('an upgrade converts a temperature from °C to °F with its offset, in the dry run and the job', async () => {
    const admin = await makeSession({ role: 'admin' });
    const t = crypto.randomUUID().slice(0, 8);
    const [from, to] = [`ETIM-to${t}`, `ETIM-tn${t}`];
    const who = { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId };
    const temperatureRelease = (unit: string) => ({
      'U.csv': csv(['UNITOFMEASID;UNITDESC;UNECE', unit]),
      'C.csv': csv(['ARTCLASSID;ARTCLASSDESC', 'EC000905;Cable tie']),
      'F.csv': csv(['FEATUREID;FEATUREDESC', 'EF000013;Ambient temperature', 'EF000014;Working temperature']),
      'M.csv': csv([
        'ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR',
        `201;EC000905;EF000013;N;${unit.slice(0, 8)};1`,
        `202;EC000905;EF000014;R;${unit.slice(0, 8)};2`,
      ]),
    });
    for (const [version, files] of [
      [`to${t}`, temperatureRelease('EU570073;°C;CEL')],
      [`tn${t}`, temperatureRelease('EU570074;°F;FAH')],
    ] as const) {
      const { job } = await loadRelease(who, { system: 'ETIM', version, files });
      expect(job!.state, job!.error ?? '').toBe('succeeded');
    }
    const catalog = await makeCatalog(admin.tenant);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    const post = (op: string, body: unknown) =>
      call('POST', `/api/Classification/${op}`, { cookie: admin.cookie, headers: { Origin: 'http://pim.test' }, body });
    const classified = await post('SetElementClassification', {
      departmentId: admin.departmentId,
      elementId: product.productId,
      classes: [{ group: 'ETIM', code: 'EC000905', release: from }],
      features: [
        { code: 'EF000013', value: '25' },
        { code: 'EF000014', value: '-20..60' },
      ],
    });
    expect(classified.status, classified.text).toBe(200);
    const plan = await post('PlanReleaseUpgrade', { from, to });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.json.automatic).toEqual([
      { line: 'feature EF000013 of class EC000905: unit CEL -> FAH, value converted x 1.8 + 32', count: 1 },
      { line: 'feature EF000014 of class EC000905: unit CEL -> FAH, value converted x 1.8 + 32', count: 1 },
    ]);
    expect(plan.json.review).toEqual([]);
    const started = await post('StartReleaseUpgrade', { from, to });
    expect(started.status, started.text).toBe(200);
    const job = (id: string) => db().query.jobs.findFirst({ where: eq(jobs.id, id) });
    const deps = { db: db(), queue: env.EXPORT_HOLD_QUEUE, sliceMs: 60_000 };
    expect(await runUpgradeSlice(deps, (await job(started.json.jobId))!)).toBe('finished');
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: admin.cookie,
    });
    expect(read.json.classification.features.map((f: any) => [f.code, f.value, f.unit])).toEqual([
      ['EF000013', '77', 'FAH'],
      ['EF000014', '-4..140', 'FAH'],
    ]);
  });

  it('the dry run lists the conversions and the job converts the values; a change across quantities is left for a person', async () => {
    const admin = await makeSession({ role: 'admin' });
    const t = crypto.randomUUID().slice(0, 8);
    const [from, to] = [`ETIM-uo${t}`, `ETIM-un${t}`];
    const who = { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId };
    for (const [version, files] of [
      [`uo${t}`, oldRelease()],
      [`un${t}`, newRelease()],
    ] as const) {
      const { job } = await loadRelease(who, { system: 'ETIM', version, files });
      expect(job!.state, job!.error ?? '').toBe('succeeded');
    }
    const catalog = await makeCatalog(admin.tenant);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    const post = (op: string, body: unknown) =>
      call('POST', `/api/Classification/${op}`, { cookie: admin.cookie, headers: { Origin: 'http://pim.test' }, body });
    const classified = await post('SetElementClassification', {
      departmentId: admin.departmentId,
      elementId: product.productId,
      classes: [{ group: 'ETIM', code: 'EC000905', release: from }],
      features: [
        { code: 'EF000008', value: '12.5 mm' },
        { code: 'EF000011', value: '-5..40' },
        { code: 'EF000012', value: '3' },
      ],
    });
    expect(classified.status, classified.text).toBe(200);

    const plan = await post('PlanReleaseUpgrade', { from, to });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.json.automatic).toEqual([
      { line: 'feature EF000008 of class EC000905: unit EU570448 -> CMT, value converted x 0.1', count: 1 },
      { line: 'feature EF000011 of class EC000905: unit EU570448 -> MTR, value converted x 0.001', count: 1 },
    ]);
    expect(plan.json.review).toEqual([
      { line: 'feature EF000012 of class EC000905: unit EU570002 -> VLT, value kept as text to convert', count: 1 },
    ]);

    const started = await post('StartReleaseUpgrade', { from, to });
    expect(started.status, started.text).toBe(200);
    const job = (id: string) => db().query.jobs.findFirst({ where: eq(jobs.id, id) });
    const deps = { db: db(), queue: env.EXPORT_HOLD_QUEUE, sliceMs: 60_000 };
    expect(await runUpgradeSlice(deps, (await job(started.json.jobId))!)).toBe('finished');
    expect((await job(started.json.jobId))!.summary).toEqual({ checked: 1, moved: 1, stayed: 0 });
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: admin.cookie,
    });
    expect(read.json.classification.classes).toMatchObject([{ code: 'EC000905', release: to }]);
    expect(read.json.classification.features.map((f: any) => [f.code, f.value, f.unit])).toEqual([
      ['EF000008', '1.25', 'CMT'],
      ['EF000011', '-0.005..0.04', 'MTR'],
      ['EF000012', '3', 'EU570002'],
    ]);
  });
});
