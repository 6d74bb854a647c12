import { z } from 'zod';
import { assertMayEditClassifications } from '../../classification/ai-switch';
import {
  ClassificationDeletedOut,
  ClassificationGroupsOut,
  ClassificationListEntry,
  ClassificationOut,
  CreateClassificationDto,
  LinkIdDto,
  UpdateClassificationDto,
} from '../../classification/classification.schemas';
import {
  createClassification,
  deleteClassification,
  getClassification,
  listClassifications,
  updateClassification,
} from '../../classification/links';
import { GROUPS } from '../../kernel/classification-groups';
import { defineTool, OVERWRITE, READ_ONLY, WRITE } from '../tool-definition';
import { PAGING_NOTE, PageInput } from './paging';

const GROUP_HELP = `classificationGroups is a bitmask of the groups carried: ${GROUPS.map((g) => `${g.value} = ${g.label} (${g.code})`).join(', ')}; e.g. 3 = ETIM + eCl@ss.`;

/** Tools over classification links (docs/design.md section 7). */
export const classificationTools = [
  defineTool({
    name: 'get_classification_groups',
    title: 'Classification groups',
    description: `The reference list of classification groups and their bitmask values. ${GROUP_HELP}`,
    input: z.strictObject({}),
    output: ClassificationGroupsOut,
    annotations: READ_ONLY,
    run: async () => ({ items: GROUPS.map((g) => ({ ...g })) }),
  }),
  defineTool({
    name: 'list_classifications',
    title: 'List classifications',
    description: `Lists classifications as {linkId, name}, optionally only the one of a catalog element (elementId). ${PAGING_NOTE}`,
    input: z.strictObject({
      elementId: z.uuid().optional().describe('Only the classification of this product, variant or category.'),
      ...PageInput,
    }),
    output: z.object({ items: z.array(ClassificationListEntry), nextCursor: z.string().nullable() }),
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listClassifications(db, caller, input),
  }),
  defineTool({
    name: 'get_classification',
    title: 'Get a classification',
    description:
      'One classification by linkId: the element it classifies, its classes per group and its feature values with names and units.',
    input: z.strictObject({
      linkId: z.uuid().describe('The classification to read (see list_classifications or get_product).'),
    }),
    output: ClassificationOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getClassification(db, caller, input.linkId),
  }),
  defineTool({
    name: 'create_classification',
    title: 'Create a classification',
    description:
      'Classifies a product, variant or category that has no classification yet: one class per group (e.g. ETIM EC000042) ' +
      `and optional feature values (e.g. EF000008 = "230"). Codes are checked against the reference data. ${GROUP_HELP} ` +
      'Needs the account switch "AI may edit classifications"; fails with a clear message when it is off.',
    input: CreateClassificationDto,
    output: ClassificationOut,
    annotations: WRITE,
    permission: 'classification.write',
    authorize: assertMayEditClassifications,
    run: ({ db, caller }, input) => createClassification(db, caller, input),
  }),
  defineTool({
    name: 'update_classification',
    title: 'Update a classification',
    description:
      'Changes a classification by linkId: name, classes or feature values. Fields left out keep their value, but `features`, ' +
      'when given, REPLACES all feature values, and changing classes drops values that no longer belong to them. ' +
      'What get_classification returns is accepted as it is (names, units and elementId are read-only and ignored), ' +
      `so read, change a value and send it back. ${GROUP_HELP} Needs the account switch "AI may edit classifications".`,
    input: UpdateClassificationDto,
    output: ClassificationOut,
    annotations: OVERWRITE,
    permission: 'classification.write',
    authorize: assertMayEditClassifications,
    run: ({ db, caller }, input) => updateClassification(db, caller, input),
  }),
  defineTool({
    name: 'delete_classification',
    title: 'Delete a classification',
    description:
      "Removes a classification by linkId: the element's classes and all its feature values (recorded in the history). " +
      'Needs the account switch "AI may edit classifications".',
    input: LinkIdDto,
    output: ClassificationDeletedOut,
    annotations: { ...OVERWRITE, idempotentHint: false },
    permission: 'classification.write',
    authorize: assertMayEditClassifications,
    run: ({ db, caller }, input) => deleteClassification(db, caller, input.linkId),
  }),
];
