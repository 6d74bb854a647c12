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
