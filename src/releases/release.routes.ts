import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import { getReleases, ReleasesOut } from './release-queries';
import { JobRef } from '../jobs/jobs';
import { StartVerifyCodesDto, startVerifyCodes } from './verify-job';
import { planReleaseUpgrade, ReleaseUpgradeDto, ReleaseUpgradePlanOut, startReleaseUpgrade } from './upgrade-job';
import {
  getReleaseClassFeatures,
  ReleaseClassFeaturesOut,
  ReleaseClassFeaturesQuery,
  SearchReleaseClassesOut,
  SearchReleaseClassesQuery,
  searchReleaseClasses,
} from './release-search';
import { getReleaseGroups, ReleaseGroupsOut, ReleaseGroupsQuery } from './release-groups';
import { releaseCellsOf } from './release-cells';
import { StartReleaseLoadDto, StartReleaseLoadOut, startReleaseLoad } from './start-release-load';

const doc = (summary: string, response: z.ZodType, more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Classification', summary, response, security: 'cookie', ...more });

/**
 * `/api/Classification/*` operations over official classification releases
 * (docs/classification-releases.md): reading them is for every signed-in user; loading and
 * replacing them (shared by every company, in every cell) for the service operator
 * (`operatorOnly`); verifying and upgrading a company's own classifications against them for
 * that company's administrators (`adminOnly`). The operation guard refuses before validation.
 */
export const releaseRoutes = new Hono<AppEnv>()
  .get('/GetReleases', doc('The classification releases: loaded, loading and failed', ReleasesOut), async (c) =>
    c.json(await getReleases(c.var.db, c.var.caller)),
  )
  .post(
    '/StartReleaseLoad',
    doc(
      'Service operator: load or replace a classification release (shared by every company) from uploaded files (Import/Upload) as a background job',
      StartReleaseLoadOut,
      { operatorOnly: true, conflict: 'A load of the same release is running, or an upload is not complete' },
    ),
    validate('json', StartReleaseLoadDto),
    async (c) =>
      c.json(
        await startReleaseLoad(
          { db: c.var.db, files: c.env.FILES, queue: c.env.JOB_QUEUE, cells: releaseCellsOf(c.env) },
          c.var.caller,
          c.req.valid('json'),
        ),
      ),
  )
  .post(
    '/StartVerifyCodes',
    doc(
      "Admin: verify the company's codes kept unverified by imports against a loaded release, as a background job",
      JobRef,
      { adminOnly: true },
    ),
    validate('json', StartVerifyCodesDto),
    async (c) =>
      c.json(await startVerifyCodes({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/PlanReleaseUpgrade',
    doc(
      'Admin: dry run of moving classifications from one release to another (what changes by itself, what needs a person)',
      ReleaseUpgradePlanOut,
      { adminOnly: true },
    ),
    validate('json', ReleaseUpgradeDto),
    async (c) => c.json(await planReleaseUpgrade(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/StartReleaseUpgrade',
    doc('Admin: move classifications from one release to another as a background job', JobRef, {
      adminOnly: true,
    }),
    validate('json', ReleaseUpgradeDto),
    async (c) =>
      c.json(await startReleaseUpgrade({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/SearchReleaseClasses',
    doc(
      'Find classes of a loaded release by code prefix, name or synonym in any of its languages',
      SearchReleaseClassesOut,
      {
        references: ['release'],
      },
    ),
    validate('query', SearchReleaseClassesQuery),
    async (c) => c.json(await searchReleaseClasses(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetReleaseClassFeatures',
    doc(
      'A class of a loaded release with its features: type, unit, mandatory, allowed values',
      ReleaseClassFeaturesOut,
      {
        references: ['release', 'classCode'],
      },
    ),
    validate('query', ReleaseClassFeaturesQuery),
    async (c) => c.json(await getReleaseClassFeatures(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetReleaseGroups',
    doc('The class groups of a loaded release (ETIM IXF groups), to narrow a class search', ReleaseGroupsOut, {
      references: ['release'],
    }),
    validate('query', ReleaseGroupsQuery),
    async (c) => c.json(await getReleaseGroups(c.var.db, c.req.valid('query'))),
  );
