import {
  type DocumentNode,
  execute,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';

/**
 * Shopify's bulk mutations as the contract server answers them
 * (https://shopify.dev/docs/api/usage/bulk-operations/imports): `stagedUploadsCreate` for
 * `BULK_MUTATION_VARIABLES` names a form upload on the server's own origin, the upload keeps the
 * JSONL file under its `key`, `bulkOperationRunMutation` checks the mutation against the pinned
 * schema (one mutation field, as Shopify requires) and the file (JSON per line), at most five
 * run at once (API 2026-01 and later), and `bulkOperation(id)` answers CREATED / RUNNING until
 * the modelled processing time has passed, then runs every line against the in-memory shop and
 * answers COMPLETED with the URL of a JSONL file of `{data, __lineNumber}` per line. The lines
 * cost no points. Processing time is a model (`BulkModel`): Shopify publishes none.
 */
export interface BulkModel {
  /** Milliseconds before the first line runs (the operation's queueing). Default 2000. */
  startMs?: number;
  /** Milliseconds per line. Default 50. */
  lineMs?: number;
}

/** The most bulk mutation operations that run at once per shop (API 2026-01 and later). */
const CONCURRENT = 5;

interface Operation {
  id: string;
  mutation: DocumentNode;
  lines: Record<string, unknown>[];
  createdAt: number;
  doneAt: number;
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'CANCELED' | 'FAILED';
  /** The file of results once settled (complete, or partial for a failed operation). */
  results: string | null;
  /** A fault: the operation fails after this many lines (partialDataUrl holds their results). */
  failAfter: number | null;
  /** A fault: every line runs, but the results of those after this many are lost (the operation fails). */
  loseAfter: number | null;
}

export function shopifyBulk(options: {
  schema: GraphQLSchema;
  rootValue: Record<string, unknown>;
  now: () => number;
  baseUrl: () => string;
  model?: BulkModel;
}) {
  const staged = new Map<string, string>();
  const operations = new Map<string, Operation>();
  let uploads = 0;
  const faults = {
    failNextAfter: null as number | null,
    loseResultsNextAfter: null as number | null,
    refuseNextRun: null as string | null,
    /** The next operation never ends (Shopify's queue stalled). */
    stallNext: false,
  };
  const runs: { mutation: string; lines: number }[] = [];
  const startMs = options.model?.startMs ?? 2000;
  const lineMs = options.model?.lineMs ?? 50;

  /** Runs the lines once the modelled time has passed (the shop changes only then). */
  async function settle(operation: Operation) {
    if (operation.status === 'CANCELED' || operation.results !== null) return;
    const now = options.now();
    if (now < operation.createdAt + startMs) return;
    if (now < operation.doneAt) {
      operation.status = 'RUNNING';
      return;
    }
    const count = operation.failAfter ?? operation.lines.length;
    const kept = operation.loseAfter ?? count;
    const out: string[] = [];
    for (const [i, variableValues] of operation.lines.slice(0, count).entries()) {
      const result = await execute({
        schema: options.schema,
        document: operation.mutation,
        rootValue: options.rootValue,
        variableValues,
      });
      if (i >= kept) continue;
      out.push(
        JSON.stringify({
          ...(result.data ? { data: result.data } : {}),
          ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
          __lineNumber: i,
        }),
      );
    }
    operation.results = out.join('\n');
    operation.status = operation.failAfter === null && operation.loseAfter === null ? 'COMPLETED' : 'FAILED';
  }

  const resultUrl = (operation: Operation) =>
    `${options.baseUrl()}/pim-bulk-results/${encodeURIComponent(operation.id)}.jsonl`;

  async function view(operation: Operation) {
    await settle(operation);
    const done = operation.results !== null;
    return {
      id: operation.id,
      status: operation.status,
      errorCode: operation.status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
      url: done && operation.status === 'COMPLETED' ? resultUrl(operation) : null,
      partialDataUrl: done && operation.status === 'FAILED' ? resultUrl(operation) : null,
      objectCount: done ? String(operation.lines.length) : '0',
    };
  }

  const bulkError = (code: string, message: string) => ({
    bulkOperation: null,
    userErrors: [{ field: null, message, code }],
  });

  const resolvers = {
    stagedUploadsCreate: ({ input }: { input: { resource: string; filename: string }[] }) => ({
      stagedTargets: input.map((target) => {
        const key = `tmp/bulk/${++uploads}/${target.filename}`;
        return {
          url: `${options.baseUrl()}/pim-staged-uploads`,
          resourceUrl: `${options.baseUrl()}/pim-staged-uploads/${key}`,
          parameters: [
            { name: 'key', value: key },
            { name: 'Content-Type', value: 'text/jsonl' },
            { name: 'success_action_status', value: '201' },
          ],
        };
      }),
      userErrors: [],
    }),
    bulkOperationRunMutation: ({ mutation, stagedUploadPath }: { mutation: string; stagedUploadPath: string }) => {
      if (faults.refuseNextRun !== null) {
        const code = faults.refuseNextRun;
        faults.refuseNextRun = null;
        return bulkError(code, 'A bulk mutation operation for this app and shop is already in progress.');
      }
      const file = staged.get(stagedUploadPath);
      if (file === undefined) return bulkError('NO_SUCH_FILE', 'The JSONL file could not be found.');
      let document: DocumentNode;
      try {
        document = parse(mutation);
      } catch {
        return bulkError('INVALID_MUTATION', 'Failed to parse the mutation.');
      }
      const definitions = document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      );
      if (
        definitions.length !== 1 ||
        definitions[0]!.operation !== 'mutation' ||
        definitions[0]!.selectionSet.selections.length !== 1 ||
        validate(options.schema, document).length > 0
      )
        return bulkError('INVALID_MUTATION', 'Invalid mutation: one mutation field is allowed.');
      const lines: Record<string, unknown>[] = [];
      for (const text of file.split('\n')) {
        if (!text.trim()) continue;
        try {
          lines.push(JSON.parse(text) as Record<string, unknown>);
        } catch {
          return bulkError('INVALID_STAGED_UPLOAD_FILE', 'Unexpected file structure - expected JSONL.');
        }
      }
      const running = [...operations.values()].filter((o) => o.results === null && o.status !== 'CANCELED');
      if (running.length >= CONCURRENT)
        return bulkError('LIMIT_REACHED', 'The limit of concurrent bulk mutation operations was reached.');
      const now = options.now();
      const operation: Operation = {
        id: `gid://shopify/BulkOperation/${operations.size + 1}`,
        mutation: document,
        lines,
        createdAt: now,
        doneAt: faults.stallNext ? Number.POSITIVE_INFINITY : now + startMs + lines.length * lineMs,
        status: 'CREATED',
        results: null,
        failAfter: faults.failNextAfter,
        loseAfter: faults.loseResultsNextAfter,
      };
      faults.failNextAfter = null;
      faults.loseResultsNextAfter = null;
      faults.stallNext = false;
      operations.set(operation.id, operation);
      runs.push({ mutation, lines: lines.length });
      return view(operation).then((bulkOperation) => ({ bulkOperation, userErrors: [] }));
    },
    bulkOperation: ({ id }: { id: string }) => {
      const operation = operations.get(id);
      return operation ? view(operation) : null;
    },
    bulkOperationCancel: ({ id }: { id: string }) => {
      const operation = operations.get(id);
      if (!operation)
        return { bulkOperation: null, userErrors: [{ field: ['id'], message: 'Bulk operation does not exist' }] };
      if (operation.results === null) operation.status = 'CANCELED';
      return view(operation).then((bulkOperation) => ({ bulkOperation, userErrors: [] }));
    },
  };

  return {
    resolvers,
    faults,
    /** The operations run: their mutation and how many lines. */
    runs,
    operations,
    /** The form upload of a staged file (multipart: the target's parameters, then `file`). */
    async upload(request: Request): Promise<number> {
      const form = await request.formData().catch(() => null);
      const key = form?.get('key');
      const file = form?.get('file');
      if (typeof key !== 'string' || !key.startsWith('tmp/bulk/') || !(file instanceof Blob)) return 400;
      staged.set(key, await file.text());
      return 201;
    },
    /** The JSONL results of a settled operation; null for an unknown or unsettled one. */
    async results(id: string): Promise<string | null> {
      const operation = operations.get(id);
      if (!operation) return null;
      await settle(operation);
      return operation.results;
    },
  };
}
