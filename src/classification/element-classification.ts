import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { classificationLinks } from '../db/schema';
import { notFound } from '../kernel/app-error';
import { findElement } from '../db/scope';
import { retryOnConflict } from '../records/write-guard';
import { assertMayEditClassifications } from './ai-switch';
import { type ClassificationContext, loadClassificationContext } from './classification-context';
import { type NextClassification, resolveClasses, resolveFeatures, writeClassification } from './classification-write';
import { ClassificationOut, ClassRef, FeatureValueInput, readOnly } from './classification.schemas';
import { getClassification, planUpdate, wantedCodes } from './links';
import { groupBit } from '../kernel/classification-groups';
import type { Caller } from '../kernel/caller';

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

async function linkOf(db: Database, tenant: Caller, elementId: string) {
  return db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, tenant.companyId)),
  });
}

/** The classification of one catalog element, or null when it has none. */
export async function getElementClassification(db: Database, tenant: Caller, elementId: string) {
  const element = await findElement(db, tenant, elementId);
  const link = await linkOf(db, tenant, element.id);
  return { elementId: element.id, classification: link ? await getClassification(db, tenant, link.linkId) : null };
}

/**
 * The web editor's "remove classification": deletes the element's classification with its
 * classes and feature values, recorded in the history, in the same two round trips as a save.
 * 404 when the element has none, so a stale screen learns that someone else removed it first.
 */
export async function deleteElementClassification(
  db: Database,
  tenant: Caller,
  input: z.infer<typeof DeleteElementClassificationDto>,
) {
  assertMayEditClassifications(tenant);
  return retryOnConflict(async () => {
    const ctx = await elementContext(db, tenant, input, { classCodes: [], featureCodes: [] });
    if (!ctx.link) throw notFound('classification');
    await writeClassification(db, tenant, ctx, null);
    return { elementId: ctx.element.id, classification: null };
  });
}

/** The element's classification context, checked to belong to the named department. */
async function elementContext(
  db: Database,
  tenant: Caller,
  input: { departmentId: string; elementId: string },
  codes: { classCodes: string[]; featureCodes: string[]; releases?: string[] },
): Promise<ClassificationContext> {
  const ctx = await loadClassificationContext(
    db,
    tenant,
    { elementId: input.elementId },
    { ...codes, departmentId: input.departmentId },
  );
  if (ctx.element.departmentId !== input.departmentId) throw notFound('element');
  return ctx;
}

/**
 * The web editor's save: creates or replaces an element's classification with the same rules
 * as the agent surface's createClassification / updateClassification (one resolveClasses /
 * resolveFeatures / planUpdate), in two round trips: one batch of reads, one guarded write batch
 * (docs/history.md, "Concurrency"). The bitmask follows the classes; removing is
 * deleteElementClassification's, never an empty class list's (the schema refuses one).
 */
export async function setElementClassification(
  db: Database,
  tenant: Caller,
  input: z.infer<typeof SetElementClassificationDto>,
) {
  assertMayEditClassifications(tenant);
  return retryOnConflict(async () => {
    const ctx = await elementContext(db, tenant, input, wantedCodes(input));
    const { element, link } = ctx;
    const classificationGroups = input.classes.reduce((mask, c) => mask | groupBit(c.group), 0);
    const wanted = { name: input.name, classificationGroups, classes: input.classes, features: input.features };
    let next: NextClassification;
    if (link) next = planUpdate(ctx, wanted);
    else {
      const classes = resolveClasses(ctx.refs, classificationGroups, input.classes);
      const [head] = classes;
      const first = head!.release
        ? ctx.refs.release.classes.find((r) => r.release === head!.release && r.code === head!.code)
        : ctx.refs.classes.find((r) => r.group === head!.group && r.code === head!.code);
      next = {
        name: input.name ?? first?.name ?? head!.code,
        groups: classificationGroups,
        classes,
        features: resolveFeatures(ctx.refs, classes, input.features),
      };
    }
    return { elementId: element.id, classification: await writeClassification(db, tenant, ctx, next) };
  });
}
