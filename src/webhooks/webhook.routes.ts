import { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { allowsPrivateTargets } from '../sync/protocol/url-guard';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import { cellOfHandle } from '../db/cells';
import { redeliver, listDeliveries, sendTestEvent } from './deliveries';
import { pokeDispatcher } from './dispatcher-object';
import {
  addEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type EndpointDeps,
} from './endpoints';
import {
  AddEndpointDto,
  DeletedEndpointOut,
  DeliveriesPageOut,
  DeliveryOut,
  DeliveryRefDto,
  EndpointOut,
  EndpointRefDto,
  EndpointsOut,
  EndpointWithSecretOut,
  GetDeliveriesQuery,
  UpdateEndpointDto,
} from './webhook.schemas';
import type { WebhookMessage } from '../env';
import type { Context } from 'hono';

const doc = (summary: string, response: z.ZodType, more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Webhooks', summary, response, security: 'cookie', adminOnly: true, ...more });
const DISABLED = 'The endpoint is disabled: enable it first';

const endpointDeps = (c: Context<AppEnv>): EndpointDeps => ({
  db: c.var.db,
  encryptionKey: c.env.WEBHOOK_ENCRYPTION_KEY,
  allowPrivate: allowsPrivateTargets(c.env.ALLOW_PRIVATE_TARGETS),
});
const queueDeps = (c: Context<AppEnv>) => ({
  db: c.var.db,
  queue: c.env.JOB_QUEUE as Queue<WebhookMessage>,
  cell: cellOfHandle(c.var.db) ?? undefined,
});

/** `/api/Webhooks/*`: a company's webhook endpoints and their delivery log (admin; docs/webhooks.md). */
export const webhookRoutes = new Hono<AppEnv>()
  .post(
    '/AddEndpoint',
    doc(
      'Subscribe a receiver URL to events; answers its signing secret, shown only here (admin)',
      EndpointWithSecretOut,
      {
        conflict: 'The company has the most endpoints it may have',
      },
    ),
    validate('json', AddEndpointDto),
    async (c) => {
      const out = await addEndpoint(endpointDeps(c), c.var.caller, c.req.valid('json'));
      await pokeDispatcher(c.env.WEBHOOK_DISPATCHER, c.var.caller.companyId);
      return c.json(out);
    },
  )
  .get(
    '/GetEndpoints',
    doc("The company's webhook endpoints, with the notice of one the service disabled (admin)", EndpointsOut),
    async (c) => c.json(await listEndpoints(c.var.db, c.var.caller)),
  )
  .post(
    '/UpdateEndpoint',
    doc('Change an endpoint: URL, description, events, enabled (admin)', EndpointOut),
    validate('json', UpdateEndpointDto),
    async (c) => {
      const out = await updateEndpoint(endpointDeps(c), c.var.caller, c.req.valid('json'));
      if (out.enabled) await pokeDispatcher(c.env.WEBHOOK_DISPATCHER, c.var.caller.companyId);
      return c.json(out);
    },
  )
  .post(
    '/DeleteEndpoint',
    doc('Delete an endpoint and its delivery log (admin)', DeletedEndpointOut),
    validate('json', EndpointRefDto),
    async (c) => c.json(await deleteEndpoint(c.var.db, c.var.caller, c.req.valid('json').endpointId)),
  )
  .post(
    '/RotateSecret',
    doc('A new signing secret, shown only here; the old one stays valid for 24 hours (admin)', EndpointWithSecretOut, {
      conflict: 'The secret was rotated at the same time',
    }),
    validate('json', EndpointRefDto),
    async (c) => c.json(await rotateSecret(endpointDeps(c), c.var.caller, c.req.valid('json').endpointId)),
  )
  .post(
    '/SendTestEvent',
    doc('Send a webhook.test event to an endpoint (admin)', DeliveryOut, { conflict: DISABLED }),
    validate('json', EndpointRefDto),
    async (c) => c.json(await sendTestEvent(queueDeps(c), c.var.caller, c.req.valid('json').endpointId)),
  )
  .get(
    '/GetDeliveries',
    doc("An endpoint's delivery log, newest first: status, attempts, response codes (admin)", DeliveriesPageOut),
    validate('query', GetDeliveriesQuery),
    async (c) => c.json(await listDeliveries(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/Redeliver',
    doc('Send a delivery again now, with the same webhook-id (admin)', DeliveryOut, { conflict: DISABLED }),
    validate('json', DeliveryRefDto),
    async (c) => c.json(await redeliver(queueDeps(c), c.var.caller, c.req.valid('json').deliveryId)),
  );
