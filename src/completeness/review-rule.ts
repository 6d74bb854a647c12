import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { assertAdmin } from '../accounts/admin-only';
import type { Database } from '../db/client';
import { attributes, channels, type ReviewRuleRow } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { dbNow } from '../kernel/clock';
import { PRODUCT_FIELDS } from '../records/snapshot';
import { channelOut, findChannel } from './channels';

/**
 * Which changes send an approved product back to review (docs/review.md): `any` change, or the
 * changes of the named fields and/or languages. A field is a history path without its language
 * (`name`, `price`, `values.colour`) or a group of them (`values`, `classification`, `media`,
 * `prices`, `categories`, `variants`, `references`, `featureBlocks`). The trigger
 * `review_back_on_change` (migration 0058) evaluates it in the write's own transaction.
 */
export const ReviewRule = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('any') }),
  z.strictObject({
    kind: z.literal('fields'),
    /** Fields whose change sends the product back; absent: a change of any field (in the languages). */
    fields: z.array(z.string().trim().min(1).max(120)).max(50).optional(),
    /** Languages (of the channel) whose change sends the product back; absent: any language. */
    languages: z.array(z.string().max(8)).max(20).optional(),
  }),
]);
export type ReviewRuleInput = z.infer<typeof ReviewRule>;

export const SetChannelReviewDto = z.strictObject({
  channelId: z.uuid(),
  /** Review before publishing on or off for the channel. */
  enabled: z.boolean(),
  /** Required when enabled; not given when disabling. */
  rule: ReviewRule.optional(),
});
export type SetChannelReviewInput = z.infer<typeof SetChannelReviewDto>;

/** Groups of history paths a rule may name whole (docs/history.md "What is recorded"). */
const PATH_GROUPS = [
  'values',
  'classification',
  'media',
  'prices',
  'categories',
  'variants',
  'references',
  'featureBlocks',
];
const KNOWN_FIELDS = new Set<string>([...PRODUCT_FIELDS, ...PATH_GROUPS]);

/** A rule the trigger can evaluate, checked against the channel and the company's attributes; 400 naming the field. */
async function checkRule(
  db: Database,
  caller: Caller,
  languages: readonly string[],
  rule: ReviewRuleInput,
): Promise<ReviewRuleRow> {
  if (rule.kind === 'any') return { kind: 'any' };
  const fields = rule.fields ?? [];
  const langs = rule.languages ?? [];
  if (fields.length === 0 && langs.length === 0)
    throw badRequest('rule.fields: name at least one field or language (or use kind "any")');
  const codes: string[] = [];
  for (const [i, field] of fields.entries()) {
    const at = `rule.fields[${i}]`;
    if (field.includes('@'))
      throw badRequest(`${at}: name the field without a language; languages go in rule.languages`);
    if (fields.indexOf(field) !== i) throw badRequest(`${at}: ${field} is listed twice`);
    const [top, ...rest] = field.split('.');
    if (top === 'values' && rest.length > 0) codes.push(rest.join('.'));
    else if (!KNOWN_FIELDS.has(field) && !(PATH_GROUPS.includes(top!) && rest.length > 0))
      throw badRequest(`${at}: ${field} is not a product field (${[...KNOWN_FIELDS].join(', ')}, values.<attribute>)`);
  }
  if (codes.length > 0) {
    const found = await db
      .select({ code: attributes.code })
      .from(attributes)
      .where(and(eq(attributes.companyId, caller.companyId), inArray(attributes.code, codes)));
    const known = new Set(found.map((r) => r.code));
    for (const [i, field] of fields.entries())
      if (field.startsWith('values.') && !known.has(field.slice('values.'.length)))
        throw badRequest(`rule.fields[${i}]: ${field} names no attribute of your company`);
  }
  for (const [i, code] of langs.entries()) {
    if (!languages.includes(code))
      throw badRequest(`rule.languages[${i}]: ${code} is not a language of the channel (${languages.join(', ')})`);
    if (langs.indexOf(code) !== i) throw badRequest(`rule.languages[${i}]: ${code} is listed twice`);
  }
  return {
    kind: 'fields',
    ...(fields.length > 0 ? { fields } : {}),
    ...(langs.length > 0 ? { languages: langs } : {}),
  };
}

/**
 * SetChannelReview (admin only): turns review before publishing on with its rule, or off. While
 * on, the channel's exports and shop syncs take only approved masters; turning it off keeps the
 * products' review states (they count again once it is turned on).
 */
export async function setChannelReview(db: Database, caller: Caller, input: SetChannelReviewInput) {
  assertAdmin(caller);
  const channel = await findChannel(db, caller, input.channelId);
  if (input.enabled && !input.rule) throw badRequest('rule: required when enabled is true');
  if (!input.enabled && input.rule) throw badRequest('rule: give a rule only with enabled: true');
  const rule = input.enabled ? await checkRule(db, caller, channel.languages, input.rule!) : null;
  await db
    .update(channels)
    .set({ reviewEnabled: input.enabled, reviewRule: rule, updatedAt: dbNow })
    .where(and(eq(channels.id, channel.id), eq(channels.companyId, caller.companyId)));
  return channelOut(await findChannel(db, caller, input.channelId));
}
