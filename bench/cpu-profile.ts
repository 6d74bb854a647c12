/**
 * Reads a V8 `.cpuprofile` (Profiler.stop through the inspector) into a short text summary:
 * where the Worker's thread spent its time by function (self time), and how much of the
 * wall time it was idle, i.e. waiting for local D1 / R2 or the queue.
 */
export function summariseProfile(profile: { nodes: any[]; samples: number[]; timeDeltas: number[] }, top = 25): string {
  const byId = new Map<number, any>(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const f = node.callFrame;
    const url = String(f.url ?? '')
      .split('/')
      .slice(-2)
      .join('/');
    const key = `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const lines = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([key, us]) =>
        `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`,
    );
  return [`profile: ${(total / 1e6).toFixed(1)} s sampled`, ...lines].join('\n');
}
