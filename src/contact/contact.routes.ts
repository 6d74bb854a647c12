import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { rateLimit } from '../http/rate-limit';
import { describeOperation } from '../openapi/describe-operation';
import { submitContactMessage } from './contact';
import { ContactDto, ContactReceipt } from './contact.schemas';

/**
 * `POST /api/contact/submit`: public and unauthenticated, so every request (valid or not) counts
 * against the per-IP limit of docs/spec.md part 8 before anything else is looked at.
 */
export const contactRoutes = new Hono<AppEnv>().post(
  '/submit',
  describeOperation({
    tag: 'Account',
    summary: 'Send a message to the sales team (5 per hour per IP)',
    response: ContactReceipt,
    security: 'none',
    rateLimited: 'More than 5 messages per hour from this IP',
  }),
  rateLimit('contact'),
  validate('json', ContactDto),
  async (c) => c.json(await submitContactMessage(c.var.db, c.req.valid('json'))),
);
