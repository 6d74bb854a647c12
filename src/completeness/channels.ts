import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { chunkForInsert, isUniqueViolation, type BatchStatement, type Database } from '../db/client';
import { channelRules, channels } from '../db/schema';
import type { JobMessage } from '../env';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { clientId, newId, unusableId } from '../kernel/ids';
import { dbNow } from '../kernel/clock';
import { enqueueJob } from '../jobs/jobs';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';
import { expandRules, Requirement, type RuleRow } from './requirements';

/** Request body of AddChannel and UpdateChannel (UpdateChannel requires channelId and replaces the channel). */
export const ChannelDto = z.strictObject({
  channelId: clientId().nullish(),
  name: z.string().trim().min(1, 'name must not be empty').max(100),
  description: z.string().max(1000).nullish(),
  /** The languages the channel publishes (ISO 639-2, each enabled for the company). */
  languages: z.array(z.string().max(8)).min(1, 'languages must name at least one language').max(20),
  requirements: z.array(Requirement).max(100),
});
export type ChannelInput = z.infer<typeof ChannelDto>;

export const ChannelOut = z.object({
  channelId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  languages: z.array(z.string()),
  requirements: z.array(Requirement),
  /** Review before publishing (docs/review.md): on or off, and which changes send an approved product back. */
  review: z.object({
    enabled: z.boolean(),
    rule: z
      .object({
        kind: z.enum(['any', 'fields']),
        fields: z.array(z.string()).optional(),
        languages: z.array(z.string()).optional(),
      })
      .nullable(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const ChannelsOut = z.object({ items: z.array(ChannelOut) });
/** What a write answers: the channel and the job recomputing its scores (Job/GetJob). */
export const ChannelWriteOut = ChannelOut.extend({ jobId: z.string() });

type ChannelRow = typeof channels.$inferSelect;
type Deps = { db: Database; queue: Queue<JobMessage> };

export function channelOut(row: ChannelRow): z.infer<typeof ChannelOut> {
  return {
    channelId: row.channelId,
    name: row.name,
    description: row.description,
    languages: row.languages,
    requirements: row.requirements as z.infer<typeof Requirement>[],
    review: { enabled: row.reviewEnabled, rule: row.reviewRule ?? null },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A channel of the caller's company, else 404. */
export async function findChannel(db: Database, caller: Caller, channelId: string): Promise<ChannelRow> {
  const row = await db.query.channels.findFirst({
    where: and(eq(channels.channelId, channelId), eq(channels.companyId, caller.companyId)),
  });
  if (!row) throw notFound('channel');
  return row;
}

export async function listChannels(db: Database, caller: Caller) {
  const rows = await db
    .select()
    .from(channels)
    .where(eq(channels.companyId, caller.companyId))
    .orderBy(asc(channels.name));
  return { items: rows.map(channelOut) };
}

/** Checks languages (each enabled, no repeats) and requirements; returns the rule rows to store. */
async function checkChannel(db: Database, caller: Caller, input: ChannelInput): Promise<RuleRow[]> {
  const settings = await readCompanyLanguages(db, caller);
  for (const [i, code] of input.languages.entries()) {
    assertEnabled(settings, code, `languages[${i}]`);
    if (input.languages.indexOf(code) !== i) throw badRequest(`languages[${i}]: ${code} is listed twice`);
  }
  const clash = await db.query.channels.findFirst({
    where: and(eq(channels.companyId, caller.companyId), eq(channels.name, input.name)),
    columns: { channelId: true },
  });
  if (clash && clash.channelId !== input.channelId) throw conflict(`a channel named "${input.name}" already exists`);
  return expandRules(db, caller, input.languages, input.requirements);
}

/** The statements that replace a channel's rules: its key is read by channel id inside the batch. */
function ruleStatements(db: Database, caller: Caller, channelId: string, rules: RuleRow[]): BatchStatement[] {
  const key = sql`(SELECT ${channels.id} FROM ${channels} WHERE ${channels.channelId} = ${channelId})`;
  const statements: BatchStatement[] = [
    db.delete(channelRules).where(and(eq(channelRules.companyId, caller.companyId), eq(channelRules.channelKey, key))),
  ];
  for (const chunk of chunkForInsert(rules, 17))
    statements.push(
      db.insert(channelRules).values(chunk.map((r) => ({ ...r, companyId: caller.companyId, channelKey: key }))),
    );
  return statements;
}

/** Queues the recompute of a channel's scores in the same transaction as `statements`. */
async function writeWithRecompute(deps: Deps, caller: Caller, channelId: string, statements: BatchStatement[]) {
  return enqueueJob(deps, caller, {
    kind: 'completeness',
    params: { channelId },
    related: () => statements,
  });
}

/** AddChannel: stores the channel and its rules, and queues the computation of its scores. */
export async function addChannel(deps: Deps, caller: Caller, input: ChannelInput) {
  const rules = await checkChannel(deps.db, caller, input);
  const channelId = input.channelId ?? newId();
  const { db } = deps;
  const insert = db.insert(channels).values({
    channelId,
    companyId: caller.companyId,
    name: input.name,
    description: input.description ?? null,
    languages: input.languages,
    requirements: input.requirements,
  });
  try {
    const { jobId } = await writeWithRecompute(deps, caller, channelId, [
      insert,
      ...ruleStatements(db, caller, channelId, rules),
    ]);
    return { ...channelOut(await findChannel(db, caller, channelId)), jobId };
  } catch (err) {
    if (isUniqueViolation(err, 'channels.channel_id')) throw unusableId('channelId');
    if (isUniqueViolation(err, 'channels.company_id, channels.name'))
      throw conflict(`a channel named "${input.name}" already exists`);
    throw err;
  }
}

/** UpdateChannel: replaces name, languages and requirements; the scores are recomputed by a job. */
export async function updateChannel(deps: Deps, caller: Caller, input: ChannelInput) {
  if (!input.channelId) throw badRequest('channelId: required');
  const { db } = deps;
  await findChannel(db, caller, input.channelId);
  const rules = await checkChannel(db, caller, input);
  const update = db
    .update(channels)
    .set({
      name: input.name,
      description: input.description ?? null,
      languages: input.languages,
      requirements: input.requirements,
      updatedAt: dbNow,
    })
    .where(and(eq(channels.channelId, input.channelId), eq(channels.companyId, caller.companyId)));
  try {
    const { jobId } = await writeWithRecompute(deps, caller, input.channelId, [
      update,
      ...ruleStatements(db, caller, input.channelId, rules),
    ]);
    return { ...channelOut(await findChannel(db, caller, input.channelId)), jobId };
  } catch (err) {
    if (isUniqueViolation(err, 'channels.company_id, channels.name'))
      throw conflict(`a channel named "${input.name}" already exists`);
    throw err;
  }
}

/**
 * DeleteChannel: the channel and its rules go at once (reads join the channel, so its scores
 * are invisible from then on); the job removes the score rows in pages.
 */
export async function deleteChannel(deps: Deps, caller: Caller, channelId: string) {
  const { db } = deps;
  const row = await findChannel(db, caller, channelId);
  return enqueueJob(deps, caller, {
    kind: 'completeness',
    params: { channelId, channelKey: row.id, deleted: true },
    related: () => [
      db
        .delete(channelRules)
        .where(and(eq(channelRules.companyId, caller.companyId), eq(channelRules.channelKey, row.id))),
      db.delete(channels).where(eq(channels.id, row.id)),
    ],
  });
}
