import { z } from 'zod';
import { CLASSIFICATION_GROUPS } from '../kernel/classification-groups';
import { RELEASE_NAME, RELEASE_NAME_RULE } from '../kernel/release-name';
import { classVersionFields } from '../model/class-version';

export const GroupCode = z.enum(CLASSIFICATION_GROUPS);

/**
 * A field that reads return and writes accept but ignore ("what a read returns, a write
 * accepts"): an agent that reads a classification, changes one value and sends it back must
 * succeed. Which fields these are, and why, is listed in docs/design.md section 7.
 */
export const readOnly = <T extends z.ZodType>(schema: T) =>
  schema.optional().describe('Read-only: accepted as the read returns it, and ignored');

export const ClassRef = z.strictObject({
  group: GroupCode,
  code: z.string().min(1).max(40),
  /** Optional; when given it must match the reference system (or the release), e.g. ETIM-9.0. */
  system: z.string().max(40).optional(),
  /**
   * The loaded release the class is from, `SYSTEM-version` (ETIM-9.0, PROFICLASS-7.0; see
   * Classification/GetReleases): the class, its features and values are checked against that
   * release. Left out or null: the service's built-in sample reference data.
   */
  release: z.string().regex(RELEASE_NAME, RELEASE_NAME_RULE).nullable().optional(),
  /** The class name of the reference release. */
  name: readOnly(z.string().max(1000).nullable()),
  /** Optional (issue 32): what an ETIM xChange file said it classified against; kept while the class stays. */
  ...classVersionFields,
});

export const FeatureValueInput = z.strictObject({
  /** Optional when the code belongs to exactly one of the link's classes. */
  group: GroupCode.optional(),
  code: z.string().min(1).max(40),
  value: z.string().min(1).max(1000),
  /** The feature name of the reference release. */
  name: readOnly(z.string().max(1000).nullable()),
  /** The feature's unit in the reference release; a value is always read in that unit. */
  unit: readOnly(z.string().max(100).nullable()),
});

export const CreateClassificationDto = z.strictObject({
  elementId: z.uuid(),
  name: z.string().trim().min(1).max(250),
  classificationGroups: z.int().min(1).max(7),
  classes: z.array(ClassRef).min(1).max(3),
  features: z.array(FeatureValueInput).max(500).optional(),
  /** Another classification's id, when a read of it is sent to classify this element alike. */
  linkId: readOnly(z.string().max(100)),
});

export const UpdateClassificationDto = z.strictObject({
  linkId: z.uuid(),
  /** A classification stays with its element; to classify another one, create a classification there. */
  elementId: readOnly(z.string().max(100)),
  name: z.string().trim().min(1).max(250).optional(),
  classificationGroups: z.int().min(1).max(7).optional(),
  classes: z.array(ClassRef).min(1).max(3).optional(),
  /** Replaces all feature values when given. */
  features: z.array(FeatureValueInput).max(500).optional(),
});

export const LinkIdDto = z.strictObject({ linkId: z.uuid() });

export const ClassificationOut = z.object({
  linkId: z.string(),
  name: z.string(),
  elementId: z.string(),
  classificationGroups: z.number().int(),
  classes: z.array(
    z.object({
      group: GroupCode,
      system: z.string(),
      code: z.string(),
      /** The loaded release the class is from (ETIM-9.0); null: the sample reference data. */
      release: z.string().nullable(),
      name: z.string(),
      /** Only when set: the ETIM class version / DYNAMIC release date the class was classified against. */
      classVersion: z.number().int().optional(),
      dynamicReleaseDate: z.string().optional(),
    }),
  ),
  features: z.array(
    z.object({ group: GroupCode, code: z.string(), name: z.string(), value: z.string(), unit: z.string().nullable() }),
  ),
});

export const ClassificationDeletedOut = z.object({ linkId: z.string(), deleted: z.literal(true) });
export const ClassificationListEntry = z.object({ linkId: z.string(), name: z.string() });
export const ClassificationGroupsOut = z.object({
  items: z.array(z.object({ value: z.number().int(), code: z.string(), label: z.string() })),
});

export type CreateClassificationInput = z.infer<typeof CreateClassificationDto>;
export type UpdateClassificationInput = z.infer<typeof UpdateClassificationDto>;
