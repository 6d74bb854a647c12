import { type RecordOutcome, TargetError } from '../target-adapter';
import { graphqlErrorText } from './shopify-graphql';

/** One record's failure inside the adapter; `write` turns it into a RecordOutcome with the field and reason. */
export class RecordFailure extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

export type UserErrors = { userErrors: { field?: string[] | null; message: string }[] };

/** Throws the mutation's GraphQL errors or user errors as the record's failure on `field`. */
export function failOn(
  field: string,
  result: { errors: { message: string }[] },
  payload: UserErrors | null | undefined,
): asserts payload is UserErrors {
  if (!payload) throw new RecordFailure(field, graphqlErrorText(result.errors) || 'the shop refused the request');
  if (payload.userErrors.length > 0) {
    throw new RecordFailure(field, payload.userErrors.map((error) => error.message).join('; '));
  }
}

/** A target error that is about the whole shop (access token, frozen shop), not one record. */
export const isFatal = (error: unknown) =>
  error instanceof TargetError && [401, 402, 403, 423].includes(error.status ?? 0);

/** One record's failure as its outcome; a failure of the whole shop, or a bug, is thrown on. */
export function failureOf(index: number, error: unknown): RecordOutcome {
  if (isFatal(error)) throw error;
  if (error instanceof RecordFailure)
    return { index, ok: false, field: error.field, error: error.message, retryable: error.retryable };
  if (error instanceof TargetError)
    return { index, ok: false, field: 'record', error: error.message, retryable: error.retryable };
  throw error;
}
