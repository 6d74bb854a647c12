/** The p-th percentile of `values` (nearest rank, 0 <= p <= 100); `values` is not changed. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median of `values` (the upper one of an even count). */
export const median = (values: readonly number[]): number => percentile(values, 50);
