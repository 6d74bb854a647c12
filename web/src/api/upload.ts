import { ApiError } from './client';
import { BOOKMARK_HEADER, bookmarkHeaders, noteBookmark } from './bookmark';
import type { PostResult } from './operations';

/** Files above this size go up in parts (Import/CreateUpload), each with its own progress; smaller in one request. */
export const MULTIPART_FROM_BYTES = 8 * 1024 * 1024;

export type UploadedFile = PostResult<'Import/Upload'>;
/** Bytes sent so far of the whole file. */
export type OnProgress = (sent: number, total: number) => void;

/**
 * Sends one request with XMLHttpRequest, which (unlike fetch) reports upload progress. Errors
 * become the same `ApiError` the JSON client throws, so describeError words them alike.
 */
function send<T>(
  method: string,
  url: string,
  body: Blob | string,
  type: string,
  onSent?: (n: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', type);
    for (const [name, value] of Object.entries(bookmarkHeaders())) xhr.setRequestHeader(name, value);
    if (onSent) xhr.upload.onprogress = (e) => onSent(e.loaded);
    xhr.onerror = () => reject(new ApiError(0, 'network'));
    xhr.onload = () => {
      noteBookmark(xhr.getResponseHeader(BOOKMARK_HEADER));
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status alone must do
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(json as T);
      const message = typeof (json as { error?: unknown })?.error === 'string' ? (json as { error: string }).error : '';
      reject(new ApiError(xhr.status, message, xhr.status === 404 && message === 'route not found'));
    };
    xhr.send(body);
  });
}

const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));

/**
 * Uploads a file to import (docs/import.md): in one request (`Import/Upload`) up to
 * MULTIPART_FROM_BYTES, else as parts of the server's `partSize` (`CreateUpload`, `UploadPart`
 * one after the other, `CompleteUpload`), reporting the bytes sent of the whole file.
 */
export async function uploadImportFile(file: File, onProgress: OnProgress = () => undefined): Promise<UploadedFile> {
  const type = file.type || 'application/octet-stream';
  if (file.size <= MULTIPART_FROM_BYTES)
    return send('POST', `/api/Import/Upload?${q({ fileName: file.name })}`, file, type, (n) =>
      onProgress(n, file.size),
    );
  const { fileId, partSize } = await send<PostResult<'Import/CreateUpload'>>(
    'POST',
    '/api/Import/CreateUpload',
    JSON.stringify({ fileName: file.name, contentType: type }),
    'application/json',
  );
  for (const [index, start] of partStarts(file.size, partSize).entries()) {
    const part = file.slice(start, Math.min(start + partSize, file.size));
    await send(
      'PUT',
      `/api/Import/UploadPart?${q({ fileId, part: index + 1 })}`,
      part,
      'application/octet-stream',
      (n) => onProgress(start + n, file.size),
    );
  }
  onProgress(file.size, file.size);
  return send('POST', '/api/Import/CompleteUpload', JSON.stringify({ fileId }), 'application/json');
}

/** Where each part of a multipart upload begins: every part `partSize` bytes, the last the rest. */
export function partStarts(size: number, partSize: number): number[] {
  const starts: number[] = [];
  for (let at = 0; at < size; at += partSize) starts.push(at);
  return starts;
}
