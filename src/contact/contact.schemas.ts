import { z } from 'zod';

/** Body of `POST /api/contact/submit`: who is asking and what. */
export const ContactDto = z.strictObject({
  name: z.string().trim().min(1, 'name is required').max(200),
  email: z.email('email must be an email address').max(254),
  company: z.string().trim().max(200).optional(),
  message: z.string().trim().min(10, 'message must have at least 10 characters').max(5000),
});

export const ContactReceipt = z.object({ ok: z.literal(true), messageId: z.string() });

export type ContactInput = z.infer<typeof ContactDto>;
