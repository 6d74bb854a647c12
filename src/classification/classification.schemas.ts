import { z } from 'zod';
import { CLASSIFICATION_GROUPS } from './groups';

export const GroupCode = z.enum(CLASSIFICATION_GROUPS);

export const ClassRef = z.strictObject({
  group: GroupCode,
  code: z.string().min(1).max(40),
  /** Optional; when given it must match the reference system, e.g. ETIM-9.0. */
  system: z.string().max(40).optional(),
});

export const FeatureValueInput = z.strictObject({
  /** Optional when the code belongs to exactly one of the link's classes. */
  group: GroupCode.optional(),
  code: z.string().min(1).max(40),
  value: z.string().min(1).max(1000),
});

export const CreateClassificationDto = z.strictObject({
  elementId: z.uuid(),
  name: z.string().trim().min(1).max(250),
  classificationGroups: z.int().min(1).max(7),
  classes: z.array(ClassRef).min(1).max(3),
  features: z.array(FeatureValueInput).max(500).optional(),
});

export const UpdateClassificationDto = z.strictObject({
  linkId: z.uuid(),
  name: z.string().trim().min(1).max(250).optional(),
  classificationGroups: z.int().min(1).max(7).optional(),
  classes: z.array(ClassRef).min(1).max(3).optional(),
  /** Replaces all feature values when given. */
  features: z.array(FeatureValueInput).max(500).optional(),
});

export const ClassificationOut = z.object({
  linkId: z.string(),
  name: z.string(),
  elementId: z.string(),
  classificationGroups: z.number().int(),
  classes: z.array(z.object({ group: GroupCode, system: z.string(), code: z.string(), name: z.string() })),
  features: z.array(
    z.object({ group: GroupCode, code: z.string(), name: z.string(), value: z.string(), unit: z.string().nullable() }),
  ),
});

export const ClassificationListEntry = z.object({ linkId: z.string(), name: z.string() });
export const ClassificationGroupsOut = z.object({
  items: z.array(z.object({ value: z.number().int(), code: z.string(), label: z.string() })),
});

export type CreateClassificationInput = z.infer<typeof CreateClassificationDto>;
export type UpdateClassificationInput = z.infer<typeof UpdateClassificationDto>;
