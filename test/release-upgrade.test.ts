import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { historyVersions, jobs } from '../src/db/schema';
import { runUpgradeSlice } from '../src/releases/upgrade-job';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease } from './helpers/release-fixtures';

const csv = (lines: string[]) => ({ content: `${lines.join('\n')}\n` });

/**
 * Two small ETIM releases in ETIM's CSV layout (with our DEPRECATED/SUCCESSOR columns): the new
 * one replaces class EC000042 by EC009999, feature EF000001 by EF009001 and value EV000082 by
 * EV000099; it drops class EC001744 and feature EF000139 from EC000905 and gives EF000008 of
 * EC000905 another unit. The new one gives its classes versions (ARTCLASSVERSION).
 */
const oldRelease = () => ({
  'U.csv': csv(['UNITOFMEASID;UNITDESC', 'EU570448;mm', 'EU570126;V']),
  'C.csv': csv([
    'ARTCLASSID;ARTCLASSDESC',
    'EC000905;Cable tie',
    'EC000042;Miniature circuit breaker',
    'EC001744;Socket outlet',
  ]),
  'F.csv': csv([
    'FEATUREID;FEATUREDESC',
    'EF000008;Width',
    'EF000007;Colour',
    'EF000139;Halogen free',
    'EF000001;Ambient temperature',
  ]),
  'V.csv': csv(['VALUEID;VALUEDESC', 'EV000080;White', 'EV000082;Black']),
  'M.csv': csv([
    'ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR',
    '101;EC000905;EF000008;N;EU570448;1',
    '102;EC000905;EF000007;A;;2',
    '103;EC000905;EF000139;L;;3',
    '104;EC000905;EF000001;R;;4',
    '201;EC000042;EF000007;A;;1',
    '301;EC001744;EF000139;L;;1',
  ]),
  'MV.csv': csv([
    'ARTCLASSFEATUREVALUENR;ARTCLASSFEATURENR;VALUEID;SORTNR',
    '1;102;EV000080;1',
    '2;102;EV000082;2',
    '3;201;EV000080;1',
  ]),
});

const newRelease = () => ({
  'U.csv': csv(['UNITOFMEASID;UNITDESC', 'EU570448;mm', 'EU570126;V']),
  'C.csv': csv([
    'ARTCLASSID;ARTCLASSDESC;DEPRECATED;SUCCESSOR;ARTCLASSVERSION',
    'EC000905;Cable tie;;;7',
    'EC000042;Miniature circuit breaker;true;EC009999;4',
    'EC009999;Miniature circuit breaker (new);;;2',
  ]),
  'F.csv': csv([
    'FEATUREID;FEATUREDESC;DEPRECATED;SUCCESSOR',
    'EF000008;Width;;',
    'EF000007;Colour;;',
    'EF000001;Ambient temperature;true;EF009001',
    'EF009001;Ambient temperature range;;',
  ]),
  'V.csv': csv([
    'VALUEID;VALUEDESC;DEPRECATED;SUCCESSOR',
    'EV000080;White;;',
    'EV000082;Black;true;EV000099',
    'EV000099;Deep black;;',
  ]),
  'M.csv': csv([
    'ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR',
    '101;EC000905;EF000008;N;EU570126;1',
    '102;EC000905;EF000007;A;;2',
    '105;EC000905;EF009001;R;;3',
    '201;EC009999;EF000007;A;;1',
  ]),
  'MV.csv': csv([
    'ARTCLASSFEATUREVALUENR;ARTCLASSFEATURENR;VALUEID;SORTNR',
    '1;102;EV000080;1',
    '2;102;EV000099;2',
    '3;201;EV000080;1',
    '4;201;EV000099;2',
  ]),
});

async function setup() {
  const admin = await makeSession({ role: 'admin' });
  const t = crypto.randomUUID().slice(0, 8);
  const from = `ETIM-o${t}`;
  const to = `ETIM-n${t}`;
  const who = { companyId: admin.companyId, departmentId: admin.departmentId, userId: admin.userId };
  for (const [version, files] of [
    [`o${t}`, oldRelease()],
    [`n${t}`, newRelease()],
  ] as const) {
    const { job } = await loadRelease(who, { system: 'ETIM', version, files });
    expect(job!.state, job!.error ?? '').toBe('succeeded');
  }
  const catalog = await makeCatalog(admin.tenant);
  const classify = async (code: string, features: { code: string; value: string }[]) => {
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    const res = await call('POST', '/api/Classification/SetElementClassification', {
      cookie: admin.cookie,
      body: {
        departmentId: admin.departmentId,
        elementId: product.productId,
        classes: [{ group: 'ETIM', code, release: from }],
        features,
      },
    });
    expect(res.status, res.text).toBe(200);
    return product.productId;
  };
  const tie = await classify('EC000905', [
    { code: 'EF000008', value: '12' },
    { code: 'EF000007', value: 'EV000082' },
    { code: 'EF000139', value: 'true' },
    { code: 'EF000001', value: '-5..40' },
  ]);
  const mcb = await classify('EC000042', [{ code: 'EF000007', value: 'EV000080' }]);
  const socket = await classify('EC001744', [{ code: 'EF000139', value: 'false' }]);
  const post = (op: string, body: unknown) =>
    call('POST', `/api/Classification/${op}`, { cookie: admin.cookie, headers: { Origin: 'http://pim.test' }, body });
  const read = async (id: string) =>
    (await call('GET', `/api/Classification/GetElementClassification?elementId=${id}`, { cookie: admin.cookie })).json
      .classification;
  return { admin, from, to, catalog, tie, mcb, socket, post, read };
}

const jobRow = async (id: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, id) }))!;

describe('upgrading classifications between releases', () => {
  it('dry run: lists per class, feature and value what changes by itself and what needs a person; writes nothing', async () => {
    const { from, to, catalog, tie, post, read } = await setup();
    const before = await read(tie);
    const plan = await post('PlanReleaseUpgrade', { from, to, catalogId: catalog.catalogId });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.json).toEqual({
      from,
      to,
      classifications: 3,
      moving: 2,
      automatic: [
        { line: `class EC000042 -> EC009999 (successor in ${to})`, count: 1 },
        { line: `feature EF000001 -> EF009001 (successor in ${to})`, count: 1 },
        { line: `value EV000082 -> EV000099 of feature EF000007 (successor in ${to})`, count: 1 },
      ],
      review: [
        { line: `class EC001744 is not in ${to} and has no successor: stays on ${from}`, count: 1 },
        {
          line: 'feature EF000008 of class EC000905: unit EU570448 -> EU570126, value kept as text to convert',
          count: 1,
        },
        { line: `feature EF000139 is not a feature of class EC000905 in ${to}: kept as text`, count: 1 },
      ],
    });
    expect(await read(tie)).toEqual(before);
  });

  it('the job moves what it can with history entries, keeps the rest as text, and leaves classes without a place', async () => {
    const { from, to, tie, mcb, socket, post, read } = await setup();
    const started = await post('StartReleaseUpgrade', { from, to });
    expect(started.status, started.text).toBe(200);
    const deps = { db: db(), queue: env.EXPORT_HOLD_QUEUE, sliceMs: 60_000 };
    expect(await runUpgradeSlice(deps, await jobRow(started.json.jobId))).toBe('finished');
    const job = await jobRow(started.json.jobId);
    expect(job.summary).toEqual({ checked: 3, moved: 2, stayed: 1 });
    expect(job.warnings).toHaveLength(3);

    const moved = await read(tie);
    // Classified against the new release's class now: its version.
    expect(moved.classes).toMatchObject([{ code: 'EC000905', release: to, system: to, classVersion: 7 }]);
    expect(moved.features.map((f: any) => [f.code, f.value, f.unit])).toEqual([
      ['EF000007', 'EV000099', null],
      ['EF000008', '12', 'EU570448'],
      ['EF000139', 'true', null],
      ['EF009001', '-5..40', null],
    ]);
    expect((await read(mcb)).classes).toMatchObject([
      { code: 'EC009999', release: to, name: 'Miniature circuit breaker (new)', classVersion: 2 },
    ]);
    expect((await read(socket)).classes).toMatchObject([{ code: 'EC001744', release: from }]);

    const history = await db().select().from(historyVersions).where(eq(historyVersions.elementId, tie));
    const entry = history.find((v) => v.jobId === job.id);
    expect(entry?.changes).toContain(to);
    expect(
      (await db().select().from(historyVersions).where(eq(historyVersions.elementId, socket))).some(
        (v) => v.jobId === job.id,
      ),
    ).toBe(false);
  });

  it('answers 400 naming the field for a release not loaded or of another system, 404 for another company’s catalog', async () => {
    const { from, to, post } = await setup();
    const missing = await post('PlanReleaseUpgrade', { from, to: 'ETIM-0.nope' });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('to: ETIM-0.nope is not loaded');
    const same = await post('StartReleaseUpgrade', { from, to: from });
    expect(same.status).toBe(400);
    const other = await makeSession();
    const foreign = await makeCatalog(other.tenant);
    const res = await post('PlanReleaseUpgrade', { from, to, catalogId: foreign.catalogId });
    expect(res.status).toBe(404);
  });
});
