/**
 * Passes an SSE response through unchanged while counting it as open, so the session can tell
 * when someone is listening (and re-check the listener's access). `onClose` runs exactly once,
 * whether the stream ends, the client goes away or the session closes it.
 */
export function trackStream(response: Response, onOpen: () => void, onClose: () => void): Response {
  if (!response.body || !response.headers.get('Content-Type')?.includes('text/event-stream')) return response;
  const reader = response.body.getReader();
  let closed = false;
  const finish = () => {
    if (!closed) {
      closed = true;
      onClose();
    }
  };
  onOpen();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
