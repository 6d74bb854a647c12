import { Hono } from 'hono';
import { CatalogStats } from '../catalog/catalog.schemas';
import { Page } from '../kernel/pagination';
import { getStats } from '../catalog/catalogs';
import {
  ClassificationDeletedOut,
  ClassificationGroupsOut,
  ClassificationListEntry,
  ClassificationOut,
  CreateClassificationDto,
  LinkIdDto,
  UpdateClassificationDto,
} from '../classification/classification.schemas';
import {
  createClassification,
  deleteClassification,
  getClassification,
  listClassifications,
  updateClassification,
} from '../classification/links';
import { GROUPS } from '../kernel/classification-groups';
import { validate } from '../http/validate';
import { requireAgent, type AgentEnv } from '../oauth/bearer';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import { getHistory } from '../history/history';
import { GetHistoryQuery, HistoryPageOut } from '../history/history.schemas';
import { getChanges } from '../history/changes-feed';
import { ChangesPageOut, GetChangesQuery } from '../history/changes.schemas';
import { LinkIdQuery, ListClassificationsQuery } from './ai.schemas';
import { getReleases, ReleasesOut } from '../releases/release-queries';
import { getReleaseGroups, ReleaseGroupsOut, ReleaseGroupsQuery } from '../releases/release-groups';
import {
  getReleaseClassFeatures,
  ReleaseClassFeaturesOut,
  ReleaseClassFeaturesQuery,
  SearchReleaseClassesOut,
  SearchReleaseClassesQuery,
  searchReleaseClasses,
} from '../releases/release-search';
import { IncompleteOut, IncompleteQuery, listIncompleteProducts } from '../completeness/incomplete-products';
import { getProductCompleteness, ProductCompletenessOut } from '../completeness/completeness-read';
import { CompletenessTrendOut, getCompletenessTrend, TrendQuery } from '../completeness/completeness-trend';
import { countScopeDayAfter } from '../completeness/channel.routes';
import { z } from 'zod';
import { aiProductRoutes } from './ai-product.routes';
import { aiReviewRoutes } from './ai-review.routes';

const doc = (summary: string, response: OperationDoc['response'], more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Classification', summary, response, security: 'bearer', ...more });

/**
 * `{base_url}/ai/*`: the agent surface. Every call needs a bearer token of {mcp_url} with scope
 * `api`; the caller is the delegating user in their single company. Thin routes over the same
 * classification domain functions the MCP tools call.
 */
export const aiRoutes = new Hono<AgentEnv>()
  .use(requireAgent('api'))
  .get(
    '/GetStats',
    doc("Counts of catalogs, categories and products in the user's department", CatalogStats, { tag: 'Catalog' }),
    async (c) => c.json(await getStats(c.var.db, c.var.agent)),
  )
  .get(
    '/GetIncompleteProducts',
    doc('The incomplete products of a channel, worst first, with what each is missing', IncompleteOut, {
      tag: 'Catalog',
      references: ['channel'],
    }),
    validate('query', IncompleteQuery),
    async (c) => c.json(await listIncompleteProducts(c.var.db, c.var.agent, c.req.valid('query'))),
  )
  .get(
    '/GetCompleteness',
    doc("A product's completeness per channel and language", ProductCompletenessOut, { tag: 'Catalog' }),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getProductCompleteness(c.var.db, c.var.agent, c.req.valid('query').productId)),
  )
  .get(
    '/GetCompletenessTrend',
    doc(
      'Per channel and language, one point per day of the last `days` (default 30): scored, complete, mean score',
      CompletenessTrendOut,
      {
        tag: 'Catalog',
        references: ['channel'],
      },
    ),
    validate('query', TrendQuery),
    async (c) => {
      const trend = await getCompletenessTrend(c.var.db, c.var.agent, c.req.valid('query'));
      countScopeDayAfter(c, c.var.agent);
      return c.json(trend);
    },
  )
  .get(
    '/ListClassificationLinkIds',
    doc('List classifications as {linkId, name}', Page(ClassificationListEntry)),
    validate('query', ListClassificationsQuery),
    async (c) => c.json(await listClassifications(c.var.db, c.var.agent, c.req.valid('query'))),
  )
  .get(
    '/GetHistory',
    doc("An element's recent changes, newest first (who, through what, before -> after)", HistoryPageOut, {
      tag: 'Catalog',
    }),
    validate('query', GetHistoryQuery),
    async (c) => c.json(await getHistory(c.var.db, c.var.agent, c.req.valid('query'))),
  )
  .get(
    '/GetChanges',
    doc('Every change of the company after a cursor, in commit order, deletes included; resumable', ChangesPageOut, {
      tag: 'Changes',
    }),
    validate('query', GetChangesQuery),
    async (c) => c.json(await getChanges(c.var.db, c.var.agent, c.req.valid('query'))),
  )
  .get(
    '/GetClassificationGroups',
    doc('The classificationGroups bitmask: {value, code, label}', ClassificationGroupsOut),
    (c) => c.json({ items: GROUPS.map((g) => ({ ...g })) }),
  )
  .get(
    '/GetReleases',
    doc('The classification releases: loaded ones are what a class entry may name as its release', ReleasesOut),
    async (c) => c.json(await getReleases(c.var.db, c.var.caller)),
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
    '/GetReleaseGroups',
    doc(
      'The class groups of a loaded release (ETIM IXF groups), the values SearchReleaseClasses takes as group',
      ReleaseGroupsOut,
      {
        references: ['release'],
      },
    ),
    validate('query', ReleaseGroupsQuery),
    async (c) => c.json(await getReleaseGroups(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetReleaseClassFeatures',
    doc(
      'A class of a loaded release with its features to fill: type (A value list, N number, R range min..max, L true/false), unit, allowed values',
      ReleaseClassFeaturesOut,
      { references: ['release', 'classCode'] },
    ),
    validate('query', ReleaseClassFeaturesQuery),
    async (c) => c.json(await getReleaseClassFeatures(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetClassification',
    doc('One classification by linkId', ClassificationOut),
    validate('query', LinkIdQuery),
    async (c) => c.json(await getClassification(c.var.db, c.var.agent, c.req.valid('query').linkId)),
  )
  .post(
    '/UpdateClassification',
    doc(
      'Update a classification (needs the AI edit switch); accepts what GetClassification returns',
      ClassificationOut,
      {
        aiSwitch: true,
        permission: 'classification.write',
      },
    ),
    validate('json', UpdateClassificationDto),
    async (c) => c.json(await updateClassification(c.var.db, c.var.agent, c.req.valid('json'))),
  )
  .post(
    '/CreateClassification',
    doc('Classify a product or category (needs the AI edit switch)', ClassificationOut, {
      aiSwitch: true,
      permission: 'classification.write',
      conflict: 'The element is already classified (update that classification)',
    }),
    validate('json', CreateClassificationDto),
    async (c) => c.json(await createClassification(c.var.db, c.var.agent, c.req.valid('json'))),
  )
  .post(
    '/DeleteClassification',
    doc(
      'Remove a classification with its classes and feature values (needs the AI edit switch)',
      ClassificationDeletedOut,
      {
        aiSwitch: true,
        permission: 'classification.write',
      },
    ),
    validate('json', LinkIdDto),
    async (c) => c.json(await deleteClassification(c.var.db, c.var.agent, c.req.valid('json').linkId)),
  )
  .route('/', aiProductRoutes)
  .route('/', aiReviewRoutes);
