/**
 * The Worker isolate's JS heap, read through the V8 inspector that `wrangler dev` exposes
 * (Chrome DevTools Protocol `Runtime.getHeapUsage`). This is the memory the 128 MB Worker
 * limit applies to, unlike the resident size of workerd, which also holds local D1 and R2.
 */
export async function connectHeapProbe(port: number) {
  // wrangler's inspector proxy only accepts connections that name a local Origin.
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Origin: `http://127.0.0.1:${port}` } } as never);
  const pending = new Map<number, (result: any) => void>();
  let nextId = 0;
  ws.addEventListener('message', (event: { data: unknown }) => {
    const message = JSON.parse(String(event.data));
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error(`cannot connect to the inspector on port ${port}`)));
  });
  const send = (method: string, params?: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  let peak = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    /** Bytes in use on the isolate's heap now (live objects and garbage not yet collected). */
    async usedBytes(): Promise<number> {
      return (await send('Runtime.getHeapUsage')).usedSize as number;
    },
    /** Samples the heap every `ms` until `stop()`, which returns the highest value seen. */
    start(ms = 200) {
      peak = 0;
      timer = setInterval(async () => (peak = Math.max(peak, await this.usedBytes())), ms);
    },
    stop(): number {
      clearInterval(timer);
      return peak;
    },
    /** Starts V8's sampling CPU profiler on the isolate (`Profiler.start`). */
    async startProfile(): Promise<void> {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 1000 });
      await send('Profiler.start');
    },
    /** Stops the profiler and returns the profile (a `.cpuprofile` document: nodes, samples, timeDeltas). */
    async stopProfile(): Promise<{ nodes: any[]; samples: number[]; timeDeltas: number[] }> {
      return (await send('Profiler.stop')).profile;
    },
    close: () => ws.close(),
  };
}
