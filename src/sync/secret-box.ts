import { AppError } from '../kernel/app-error';
import { isUsableKey, seal, unseal } from '../kernel/secret-box';

/**
 * Connection secrets sealed with the Worker secret `SYNC_ENCRYPTION_KEY` (src/kernel/secret-box.ts);
 * the connection id is the additional data, so a ciphertext copied onto another connection does
 * not decrypt.
 */
function keyOf(encryptionKey: string | undefined): string {
  if (!isUsableKey(encryptionKey)) {
    console.error(
      JSON.stringify({ where: 'sync', error: 'SYNC_ENCRYPTION_KEY is not set (or shorter than 16 characters)' }),
    );
    throw new AppError('internal', 'sync connections are not configured on this server');
  }
  return encryptionKey;
}

export async function encryptSecret(
  encryptionKey: string | undefined,
  connectionId: string,
  plaintext: string,
): Promise<string> {
  return seal(keyOf(encryptionKey), connectionId, plaintext);
}

export async function decryptSecret(
  encryptionKey: string | undefined,
  connectionId: string,
  sealed: string,
): Promise<string> {
  const opened = await unseal(keyOf(encryptionKey), connectionId, sealed);
  if (opened === 'unreadable') throw new AppError('internal', 'the stored connection secret is unreadable');
  if (opened === 'wrong-key') {
    // A rotated SYNC_ENCRYPTION_KEY: the admin re-enters the secret with UpdateConnection.
    throw new AppError(
      'conflict',
      'the connection secret cannot be decrypted (was SYNC_ENCRYPTION_KEY changed?); set the secret again with UpdateConnection',
    );
  }
  return opened.plaintext;
}
