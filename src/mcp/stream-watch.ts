/**
 * Passes an SSE response through unchanged while counting it as open, so the owner can tell
 * when someone is listening (and re-check the listener's access). `onClose` runs exactly once,
 * whether the stream ends, the client goes away or `close()` cuts it.
 */
export function trackStream(
  response: Response,
  onOpen: () => void,
  onClose: () => void,
): { response: Response; close: () => void } {
  if (!response.body || !response.headers.get('Content-Type')?.includes('text/event-stream'))
    return { response, close: () => {} };
  const reader = response.body.getReader();
  let closed = false;
  let cut: (() => void) | undefined;
  const finish = () => {
    if (!closed) {
      closed = true;
      onClose();
    }
  };
  onOpen();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      cut = () => {
        finish();
        void reader.cancel('access revoked').catch(() => {});
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (closed) return;
        if (done) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        finish();
        if (!closed) controller.error(err);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return {
    response: new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    }),
    close: () => cut?.(),
  };
}

/**
 * For a stream served outside a session (the stateless revision's SSE answers): re-checks the
 * caller's access every `intervalMs` while the stream is open and cuts it on refusal.
 */
export function guardStream(response: Response, stillAllowed: () => Promise<boolean>, intervalMs: number): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const tracked = trackStream(
    response,
    () => {
      timer = setInterval(async () => {
        if (!(await stillAllowed())) tracked.close();
      }, intervalMs);
    },
    () => clearInterval(timer),
  );
  return tracked.response;
}
