/**
 * k of N with its Wilson score interval (95%), and the one rule for a change: two rates differ
 * only when their intervals do not overlap. With few samples the intervals are wide, so a change
 * of one question asked 3 times (0 of 3 against 3 of 3: [0, 0.56] and [0.44, 1]) is never flagged;
 * a provider's rate over every question of a run (e.g. 0 of 15 against 15 of 15) can be.
 *
 * Wilson, E. B. (1927), "Probable inference, the law of succession, and statistical inference",
 * JASA 22(158): the interval recommended over the normal approximation for small N by Brown, Cai &
 * DasGupta (2001), "Interval Estimation for a Binomial Proportion", Statistical Science 16(2).
 */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** A count with its interval (proportions, 0..1). */
export interface Rate {
  k: number;
  n: number;
  /** Lower and upper bounds of the Wilson 95% interval; [0, 1] when n is 0. */
  low: number;
  high: number;
}

/** k of n with its Wilson 95% interval. */
export function wilson(k: number, n: number, z = Z95): Rate {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) {
    throw new RangeError(`not a count: ${k} of ${n}`);
  }
  if (n === 0) return { k, n, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / denominator;
  // Rounded to 4 places for the record; the bounds are clamped (k = 0 and k = n are exact).
  const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1e4) / 1e4;
  return {
    k,
    n,
    low: k === 0 ? 0 : round(centre - half),
    high: k === n ? 1 : round(centre + half),
  };
}

/** "up", "down" or null: `after` differs from `before` only when their intervals are apart. */
export function separated(before: Rate, after: Rate): "up" | "down" | null {
  if (before.n === 0 || after.n === 0) return null;
  if (after.low > before.high) return "up";
  if (after.high < before.low) return "down";
  return null;
}

/** "2 of 3 (22-98%)". */
export function rateText(r: Rate): string {
  if (r.n === 0) return "no answer";
  return `${r.k} of ${r.n} (${Math.round(r.low * 100)}-${Math.round(r.high * 100)}%)`;
}

/**
 * A rate in plain words, for a reader who does not read intervals: "named in 2 of 3 answers; with
 * more answers we could say between 22% and 98%". `what` is the verb phrase ("named", "cited").
 */
export function plainRate(r: Rate, what: string): string {
  if (r.n === 0) return `no answer came back, so nothing can be said about how often it is ${what}`;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const count = `${what} in ${r.k} of ${r.n} answer${r.n === 1 ? "" : "s"}`;
  if (r.high - r.low < 0.2) {
    return `${count} (between ${pct(r.low)} and ${pct(r.high)} of the time)`;
  }
  return `${count}; with more answers we could say between ${pct(r.low)} and ${pct(r.high)}`;
}
