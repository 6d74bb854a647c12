import { and, asc, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { clientId, newId, unusableId } from '../kernel/ids';
import { attributes, channelRules } from '../db/schema';
import type { JobMessage } from '../env';
import { enqueueJob } from '../jobs/jobs';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import { BUILT_IN_FIELDS } from '../model/fields';
import { ATTRIBUTE_CODE, ATTRIBUTE_CODE_RULE } from './attribute-code';
import type { Caller } from '../kernel/caller';
import { keysetPage } from '../kernel/pagination';
import { codeContaining, codePrefix } from './code-search';

const FEATURE_CODE = /^(EF\d{6}|[A-Z]{3}\d{3}|\d{2}-\d{2}-\d{2}-\d{2})$/;

export const AttributeDto = z.strictObject({
  attributeId: clientId().nullish(),
  code: z.string().regex(ATTRIBUTE_CODE, `code ${ATTRIBUTE_CODE_RULE}`),
  name: z.string().trim().min(1).max(250),
  type: z.enum(['text', 'number', 'boolean', 'enum', 'range']),
  unit: z.string().max(20).nullish(),
  enumValues: z.array(z.string().min(1).max(100)).max(500).nullish(),
  /** A text attribute whose value is kept per language (docs/languages.md); left out = unchanged (false when added). */
  localizable: z.boolean().nullish(),
});
export type AttributeInput = z.infer<typeof AttributeDto>;

export const AttributeOut = z.object({
  attributeId: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(['text', 'number', 'boolean', 'enum', 'range']),
  unit: z.string().nullable(),
  enumValues: z.array(z.string()).nullable(),
  localizable: z.boolean(),
});

type AttributeRow = typeof attributes.$inferSelect;

function attributeOut(row: AttributeRow) {
  return {
    attributeId: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    unit: row.unit,
    enumValues: row.enumValues ?? null,
    localizable: row.localizable,
  };
}

function checkDefinition(input: AttributeInput) {
  const builtIn = Object.values(BUILT_IN_FIELDS).some((fields) => Object.hasOwn(fields, input.code));
  if (builtIn) throw badRequest(`code: "${input.code}" is a built-in field`);
  if (FEATURE_CODE.test(input.code)) throw badRequest(`code: "${input.code}" looks like a classification feature code`);
  if (input.type === 'enum' && !input.enumValues?.length) throw badRequest('enumValues: required for type enum');
  if (input.type !== 'enum' && input.enumValues?.length) throw badRequest('enumValues: only for type enum');
  if (input.unit && input.type !== 'number' && input.type !== 'range')
    throw badRequest('unit: only for number and range attributes');
  if (input.localizable && input.type !== 'text')
    throw badRequest('localizable: only a text attribute is kept per language');
}

export async function addAttribute(db: Database, tenant: Caller, input: AttributeInput) {
  checkDefinition(input);
  const [row] = await db
    .insert(attributes)
    .values({
      id: input.attributeId ?? newId(),
      companyId: tenant.companyId,
      code: input.code,
      name: input.name,
      type: input.type,
      unit: input.unit ?? null,
      enumValues: input.enumValues ?? null,
      localizable: input.localizable ?? false,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const idTaken = input.attributeId && (await db.$count(attributes, eq(attributes.id, input.attributeId))) > 0;
    throw idTaken ? unusableId('attributeId') : conflict(`attribute code "${input.code}" is already in use`);
  }
  return attributeOut(row);
}

/**
 * Renames or re-describes an attribute. Its code and type are fixed once values may exist.
 * Turning `localizable` on or off changes what a channel rule on the attribute reads in a
 * further language (its translation, or the one neutral value): when a rule names the
 * attribute, every channel's scores are recomputed by a job queued in the same transaction.
 */
export async function updateAttribute(
  deps: { db: Database; queue: Queue<JobMessage> },
  tenant: Caller,
  input: AttributeInput,
) {
  const { db } = deps;
  if (!input.attributeId) throw badRequest('attributeId is required');
  const existing = await db.query.attributes.findFirst({
    where: and(eq(attributes.id, input.attributeId), eq(attributes.companyId, tenant.companyId)),
  });
  if (!existing) throw notFound('attribute');
  if (existing.code !== input.code || existing.type !== input.type)
    throw badRequest('code and type of an attribute cannot change');
  checkDefinition(input);
  if (existing.type === 'enum') {
    const removed = (existing.enumValues ?? []).filter((v) => !(input.enumValues ?? []).includes(v));
    if (removed.length > 0) throw badRequest(`enumValues: values cannot be removed (${removed.join(', ')})`);
  }
  const update = db
    .update(attributes)
    .set({
      name: input.name,
      unit: input.unit ?? null,
      enumValues: input.enumValues ?? null,
      // Turning it off keeps the stored translations (as disabling a language does); they show again when on.
      ...(input.localizable != null ? { localizable: input.localizable } : {}),
    })
    .where(eq(attributes.id, existing.id));
  const flipped = input.localizable != null && input.localizable !== existing.localizable;
  if (flipped && (await namedByRule(db, tenant, existing.id)))
    await enqueueJob(deps, tenant, {
      kind: 'completeness',
      params: { everyChannel: true, attribute: existing.code },
      related: () => [update],
    });
  else await update;
  return attributeOut((await db.query.attributes.findFirst({ where: eq(attributes.id, existing.id) }))!);
}

/** Whether a channel rule of the company reads the attribute (`channel_rules.ref` is its id). */
async function namedByRule(db: Database, tenant: Caller, attributeId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(channelRules)
    .where(and(eq(channelRules.companyId, tenant.companyId), eq(channelRules.ref, attributeId)))
    .limit(1);
  return row !== undefined;
}

export const AttributesQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('only attributes whose code or name contains this text, ASCII case ignored'),
  prefix: z
    .string()
    .max(100)
    .optional()
    .describe('only codes beginning with exactly this text (case kept): an index range'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('a page of this many, in code order, with nextCursor; without it and cursor: every attribute'),
});

/**
 * `Catalog/GetAttributes`: the company's attributes in code order. Without `limit` and `cursor`
 * the whole list (as the editors read it); with them a keyset page over the (company, code)
 * index with `nextCursor`, filtered by `prefix` (an index range) and `q` (code or name containing
 * it, code-search.ts), which the shop mapping's pick list asks as it is typed (docs/web.md "Shops").
 */
export async function listAttributes(db: Database, tenant: Caller, input: z.infer<typeof AttributesQuery> = {}) {
  const filter = and(
    eq(attributes.companyId, tenant.companyId),
    input.prefix ? codePrefix(attributes.code, input.prefix) : undefined,
    input.q ? or(codeContaining(attributes.code, input.q), codeContaining(attributes.name, input.q)) : undefined,
  );
  if (input.limit === undefined && input.cursor === undefined) {
    const rows = await db.select().from(attributes).where(filter).orderBy(asc(attributes.code));
    return { items: rows.map(attributeOut) };
  }
  const page = await keysetPage(
    { cursor: input.cursor, limit: input.limit ?? 100 },
    { column: attributes.code, order: 'asc' },
    (q) => db.select().from(attributes).where(and(filter, q.after)).orderBy(q.orderBy).limit(q.limit),
    (row) => row.code,
  );
  return { items: page.items.map(attributeOut), nextCursor: page.nextCursor };
}

export async function findAttributeByCode(db: Database, tenant: Caller, code: string) {
  return db.query.attributes.findFirst({
    where: and(eq(attributes.companyId, tenant.companyId), eq(attributes.code, code)),
  });
}
