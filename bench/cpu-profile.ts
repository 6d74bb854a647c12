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

/**
 * Inclusive time (the function and everything it called) of the named functions, as a share
 * of the sampled time: which phase of an import the thread was in (validation pass, write
 * pass, XML parsing, upsert, D1 calls), which self time alone does not show.
 */
export function inclusiveShares(
  profile: { nodes: any[]; samples: number[]; timeDeltas: number[] },
  names: string[],
): string {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map<number, any>(profile.nodes.map((n) => [n.id, n]));
  const wanted = new Set(names);
  const inclusive = new Map<string, number>(names.map((n) => [n, 0]));
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const seen = new Set<string>();
    for (let node = byId.get(id); node; node = byId.get(parent.get(node.id) ?? -1)) {
      const name = node.callFrame.functionName;
      if (wanted.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name)! + dt);
      }
    }
  });
  return names
    .map(
      (n) =>
        `${((100 * inclusive.get(n)!) / total).toFixed(1).padStart(5)} %  ${(inclusive.get(n)! / 1000).toFixed(0).padStart(7)} ms  ${n} (inclusive)`,
    )
    .join('\n');
}
