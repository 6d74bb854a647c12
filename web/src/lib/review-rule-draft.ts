import type { BodyOf, GetResult } from '../api/operations';

/**
 * The channel dialog's review settings (docs/review.md "The rule"): review on or off, and which
 * changes send an approved product back to review: any change, or changes of named fields
 * and/or languages. Fields are typed as one list (`name, price, values.colour, media`); the API
 * checks each and answers a 400 naming it (`rule.fields[1]: …`). Pure, so
 * web/test/review-rule-draft.test.ts pins it.
 */
export type ChannelReview = GetResult<'Catalog/GetChannels'>['items'][number]['review'];
type ReviewBody = BodyOf<'Catalog/SetChannelReview'>;

export interface ReviewDraft {
  enabled: boolean;
  kind: 'any' | 'fields';
  /** The fields as typed, separated by commas or spaces. */
  fields: string;
  languages: string[];
}

/** The form's starting point: the channel's stored setting (review off: "any change" offered). */
export function reviewDraftOf(review: ChannelReview | undefined): ReviewDraft {
  const rule = review?.rule;
  if (!rule || rule.kind === 'any')
    return { enabled: review?.enabled ?? false, kind: 'any', fields: '', languages: [] };
  return {
    enabled: review.enabled,
    kind: 'fields',
    fields: (rule.fields ?? []).join(', '),
    languages: rule.languages ?? [],
  };
}

/** The typed field list as the API takes it: split at commas and white space, empties dropped. */
export function fieldList(typed: string): string[] {
  return typed.split(/[\s,]+/).filter((f) => f !== '');
}

/** SetChannelReview's body: off takes no rule; a list left empty is left out (the API refuses both empty). */
export function reviewBodyOf(channelId: string, draft: ReviewDraft): ReviewBody {
  if (!draft.enabled) return { channelId, enabled: false };
  if (draft.kind === 'any') return { channelId, enabled: true, rule: { kind: 'any' } };
  const fields = fieldList(draft.fields);
  return {
    channelId,
    enabled: true,
    rule: {
      kind: 'fields',
      ...(fields.length ? { fields } : {}),
      ...(draft.languages.length ? { languages: draft.languages } : {}),
    },
  };
}
