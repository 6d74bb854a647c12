import type { Database } from '../db/client';
import { newId } from '../kernel/ids';
import { contactMessages } from '../db/schema';
import type { ContactInput } from './contact.schemas';

/** Stores a contact-form message for the sales team; the id is the receipt. */
export async function submitContactMessage(
  db: Database,
  input: ContactInput,
): Promise<{ ok: true; messageId: string }> {
  const messageId = newId();
  await db.insert(contactMessages).values({
    id: messageId,
    name: input.name,
    email: input.email.toLowerCase(),
    company: input.company || null,
    message: input.message,
  });
  return { ok: true, messageId };
}
