/**
 * CPU growth of a parser on adversarial input, asserted without depending on the machine's speed
 * or load: the same input shape is parsed at sizes that double up to the parser's byte limit, the
 * CPU time of each size is the least of a few runs (process CPU time, not the wall clock, so
 * other processes on the machine cost nothing), and the test compares sizes with each other, never
 * with a fixed number of milliseconds.
 *
 * The verdict is a ratio with a wide margin: once a size costs at least {@link FLOOR_MS} (below
 * that the timer's grain and fixed costs dominate) it is the reference, and every larger size may
 * cost at most {@link MARGIN} times the linear growth from it. A linear parser grows 8x over 8x
 * the size and passes under 32x; a quadratic one grows 64x there and fails, an exponential one
 * sooner. The ladder stops at the first size over the bound, so old super-linear code fails in
 * seconds instead of running for hours at the byte limit.
 */
import process from "node:process";
import fc from "fast-check";

/** Below this a size's time is noise, not a reference (ms of CPU). */
export const FLOOR_MS = 3;
/** How far past linear growth a size may go before it fails. */
export const MARGIN = 4;

/**
 * The least CPU time (user + system, ms) of `runs` calls of `fn`; it stops early after a call
 * that took more than `enough` ms (the answer is then that call's time).
 */
export function cpuMs(fn: () => unknown, runs: number, enough = Infinity): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    best = Math.min(best, ms);
    if (ms > enough) break;
  }
  return best;
}

/** One size of a ladder: its input's length and the CPU time it took. */
export interface Rung {
  size: number;
  ms: number;
}

/**
 * Parses inputs of `make(size)` for sizes doubling from `from` to `to` (the byte limit) and throws
 * when CPU grows faster than linearly (see the module comment). Returns the rungs measured.
 */
export function assertLinearCpu<I>(
  label: string,
  make: (size: number) => I,
  parse: (input: I) => unknown,
  options: {
    from: number;
    to: number;
    runs?: number;
    /**
     * How much each size grows up to `fineUpTo` (then 2). Inputs whose old cost was exponential
     * grow by little while small, so the first size past the bound is reached before one that
     * would run for hours.
     */
    factor?: number;
    fineUpTo?: number;
  },
): Rung[] {
  const rungs: Rung[] = [];
  let reference = null as Rung | null;
  parse(make(options.from)); // compiled once before anything is timed
  const next = (size: number) =>
    Math.ceil(size * (size < (options.fineUpTo ?? 0) ? options.factor ?? 2 : 2));
  for (let size = options.from; size <= options.to; size = next(size)) {
    const input = make(size);
    // Fewer runs where one run is long: the least of two is as steady there as of five below.
    const runs = options.runs ?? ((rungs.at(-1)?.ms ?? 0) > 200 ? 2 : 5);
    const bound: number = reference ? MARGIN * (size / reference.size) * reference.ms : Infinity;
    // A run ten times over the bound fails at once (no noise is that large): the old code is not
    // run again at a size where it takes minutes.
    const rung: Rung = { size, ms: cpuMs(() => parse(input), runs, 10 * bound) };
    rungs.push(rung);
    if (!reference) {
      if (rung.ms >= FLOOR_MS) reference = rung;
      continue;
    }
    if (rung.ms > bound) {
      throw new Error(
        `${label}: CPU grew faster than linearly: ${describe(rungs)} ` +
          `(${rung.ms.toFixed(1)} ms at ${rung.size} > ${bound.toFixed(1)} ms, ${MARGIN}x linear ` +
          `from ${reference.size})`,
      );
    }
  }
  return rungs;
}

/** The ladder as "size: ms" pairs, for messages and logs. */
export function describe(rungs: Rung[]): string {
  return rungs.map((r) => `${r.size}: ${r.ms.toFixed(1)} ms`).join(", ");
}

/**
 * Text of about `size` characters made of `unit` repeated; `{i}` in the unit is replaced by the
 * repetition's number, so repeated names stay distinct where sameness would be cheap.
 */
export function repeatTo(unit: string, size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const piece = unit.includes("{i}") ? unit.replaceAll("{i}", String(i)) : unit;
    parts.push(piece);
    length += Math.max(1, piece.length);
  }
  return parts.join("").slice(0, size);
}

/** `unit` repeated whole (no unit cut at the end: JSON stays JSON), at least `size` characters. */
export function repeatWhole(unit: string, size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const piece = unit.replaceAll("{i}", String(i));
    parts.push(piece);
    length += Math.max(1, piece.length);
  }
  return parts.join("");
}

/**
 * An adversarial unit for a parser: one of the shapes known to hurt backtracking and array scans
 * (from `pool`), with a few random characters of the parser's own alphabet around it.
 */
export function unitOf(pool: readonly string[], alphabet: readonly string[]): fc.Arbitrary<string> {
  const noise = fc.array(fc.constantFrom(...alphabet), { maxLength: 3 }).map((a) => a.join(""));
  return fc.tuple(fc.constantFrom(...pool), noise).map(([shape, extra]) => shape + extra);
}

/**
 * The property: for the `examples` and the units drawn by fast-check, CPU grows at most linearly up to the byte
 * limit. The seed is fixed (CPU_SEED overrides it), so a run is repeatable.
 */
export function assertLinearFor(
  label: string,
  units: fc.Arbitrary<string>,
  check: (unit: string) => Rung[],
  options: {
    /** Units drawn by fast-check. */
    runs?: number;
    /** Units always tried first: the shapes that hurt the code this property guards. */
    examples?: string[];
  } = {},
): void {
  const seed = Number(Deno.env.get("CPU_SEED") ?? 20261206);
  const seen: string[] = [];
  fc.assert(
    fc.property(units, (unit) => {
      const rungs = check(unit);
      seen.push(`${JSON.stringify(unit.slice(0, 40))} -> ${describe(rungs.slice(-2))}`);
    }),
    {
      // fast-check counts the examples among the runs.
      numRuns: (options.examples?.length ?? 0) + (options.runs ?? 2),
      seed,
      endOnFailure: true,
      examples: (options.examples ?? []).map((e) => [e] as [string]),
    },
  );
  console.log(`[cpu] ${label}: ${seen.join("; ")}`);
}
