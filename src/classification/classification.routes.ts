import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import {
  DeleteElementClassificationDto,
  deleteElementClassification,
  ElementClassificationOut,
  ElementClassificationQuery,
  getElementClassification,
  setElementClassification,
  SetElementClassificationDto,
} from './element-classification';
import {
  ClassFeaturesOut,
  ClassFeaturesQuery,
  ClassSearchOut,
  getClassFeatures,
  searchClasses,
  SearchClassesQuery,
} from './reference-queries';

const doc = (summary: string, response: z.ZodType, more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Classification', summary, response, security: 'cookie', ...more });

/**
 * `/api/Classification/*`: the web application's classification editor (session cookie).
 * Reference lookups plus an element's classification, saved through the agent surface's
 * domain functions so both surfaces enforce the same rules.
 */
export const classificationRoutes = new Hono<AppEnv>()
  .get(
    '/SearchClasses',
    doc('Find classes of a system by code prefix or name', ClassSearchOut),
    validate('query', SearchClassesQuery),
    async (c) => c.json(await searchClasses(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetClassFeatures',
    doc('Features of a class with type, unit and allowed values', ClassFeaturesOut, { references: ['classCode'] }),
    validate('query', ClassFeaturesQuery),
    async (c) => c.json(await getClassFeatures(c.var.db, c.req.valid('query'))),
  )
  .get(
    '/GetElementClassification',
    doc('The classification of a catalog element (null when unclassified)', ElementClassificationOut),
    validate('query', ElementClassificationQuery),
    async (c) => c.json(await getElementClassification(c.var.db, c.var.caller, c.req.valid('query').elementId)),
  )
  .post(
    '/SetElementClassification',
    doc(
      'Classify an element or replace its classes and feature values (at least one class)',
      ElementClassificationOut,
      { conflict: 'Another writer classified the element at the same time', permission: 'classification.write' },
    ),
    validate('json', SetElementClassificationDto),
    async (c) => c.json(await setElementClassification(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/DeleteElementClassification',
    doc(
      "Remove an element's classification with its classes and feature values (recorded in the history)",
      ElementClassificationOut,
      { references: ['elementId'], permission: 'classification.write' },
    ),
    validate('json', DeleteElementClassificationDto),
    async (c) => c.json(await deleteElementClassification(c.var.db, c.var.caller, c.req.valid('json'))),
  );
