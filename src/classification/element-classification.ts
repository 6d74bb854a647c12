import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { classificationClasses, classificationLinks } from '../db/schema';
import { notFound } from '../http/app-error';
import { assertDepartment, findElement, type Tenant } from '../catalog/scope';
import type { Actor } from '../history/actor';
import { ClassificationOut, ClassRef, FeatureValueInput, readOnly } from './classification.schemas';
import { createClassification, deleteClassification, getClassification, updateClassification } from './links';
import { groupBit, type ClassificationGroup } from './groups';

export const ElementClassificationQuery = z.strictObject({ elementId: z.uuid() });

export const SetElementClassificationDto = z.strictObject({
  departmentId: z.uuid(),
  elementId: z.uuid(),
  /**
   * At most one class per group, at least one: an empty list is refused, never read as "remove"
   * (DeleteElementClassification does that, explicitly).
   */
  classes: z.array(ClassRef).min(1).max(3),
  /** Replaces all feature values; each code must be a feature of one of the classes. */
  features: z.array(FeatureValueInput).max(500).default([]),
  /** Label of the classification; defaults to the name of the first class. */
  name: z.string().trim().min(1).max(250).optional(),
  /** The classification read by GetElementClassification, sent back whole: its id, and the bitmask the classes imply. */
  linkId: readOnly(z.string().max(100)),
  classificationGroups: readOnly(z.int()),
});

export const DeleteElementClassificationDto = z.strictObject({ departmentId: z.uuid(), elementId: z.uuid() });

export const ElementClassificationOut = z.object({
  elementId: z.string(),
  classification: ClassificationOut.nullable(),
});

async function linkOf(db: Database, tenant: Tenant, elementId: string) {
  return db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, tenant.companyId)),
  });
}

/** The classification of one catalog element, or null when it has none. */
export async function getElementClassification(db: Database, tenant: Tenant, elementId: string) {
  const element = await findElement(db, tenant, elementId);
  const link = await linkOf(db, tenant, element.id);
  return { elementId: element.id, classification: link ? await getClassification(db, tenant, link.linkId) : null };
}

/**
 * The web editor's "remove classification": deletes the element's classification with its
 * classes and feature values, recorded in the history. 404 when the element has none, so a
 * stale screen learns that someone else removed it first.
 */
export async function deleteElementClassification(
  db: Database,
  tenant: Actor,
  input: z.infer<typeof DeleteElementClassificationDto>,
) {
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const link = await linkOf(db, tenant, element.id);
  if (!link) throw notFound('classification');
  await deleteClassification(db, tenant, link.linkId);
  return { elementId: element.id, classification: null };
}

/**
 * The web editor's save: creates or replaces an element's classification through the
 * same domain functions the agent surface uses (createClassification / updateClassification),
 * so class, feature and value rules are checked in one place. The bitmask follows the classes.
 */
export async function setElementClassification(
  db: Database,
  tenant: Actor,
  input: z.infer<typeof SetElementClassificationDto>,
) {
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const link = await linkOf(db, tenant, element.id);
  const classificationGroups = input.classes.reduce((mask, c) => mask | groupBit(c.group), 0);
  const classification = link
    ? await updateClassification(db, tenant, {
        linkId: link.linkId,
        name: input.name,
        classificationGroups,
        classes: input.classes,
        features: input.features,
      })
    : await createClassification(db, tenant, {
        elementId: element.id,
        name: input.name ?? (await defaultName(db, input.classes[0]!)),
        classificationGroups,
        classes: input.classes,
        features: input.features,
      });
  return { elementId: element.id, classification };
}

async function defaultName(db: Database, first: { group: ClassificationGroup; code: string }): Promise<string> {
  const cls = await db.query.classificationClasses.findFirst({
    where: and(eq(classificationClasses.group, first.group), eq(classificationClasses.code, first.code)),
  });
  // An unknown class is refused by createClassification with a message naming it.
  return cls?.name ?? first.code;
}
