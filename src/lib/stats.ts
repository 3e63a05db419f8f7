// Percentiles of samples, for the dashboard's render times, the bench and timing tests: one definition.

/** The p-quantile (0..1) of `xs`, linearly interpolated between the two nearest ranks; NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return s[lo]! + (s[hi]! - s[lo]!) * (i - lo);
}

export const median = (xs: readonly number[]) => percentile(xs, 0.5);
