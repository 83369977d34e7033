/**
 * How many more file descriptors this process can open, as it really runs. The soft limit is in
 * /proc/self/limits, but Deno 2.9 refuses every file under /proc/self (and /proc/<pid>) without
 * `--allow-all` ("NotCapable"), even with `--allow-read=/proc/self/limits`, and the start task
 * grants neither that nor a subprocess or FFI to libc. So it is measured: descriptors of
 * /dev/null are opened until the system refuses one (or `ceiling` are open), then all closed.
 * That counts what is free now, which is what connections can use.
 *
 * It briefly holds every free descriptor, so it runs once, at start-up, before the server opens
 * its store, starts threads or listens (main.ts). About 12 µs per descriptor: 0.25 s at 20,000.
 */

/** What was found. */
export interface FreeDescriptors {
  /** Descriptors that could be opened (at least this many when `atLeast`). */
  free: number;
  /** True when the probe stopped at its ceiling before the system refused one. */
  atLeast: boolean;
  /** How it was found, for the start-up line. */
  how: string;
}

/** Counts free descriptors, up to `ceiling`; null when /dev/null cannot be opened (no read access). */
export function freeDescriptors(
  ceiling: number,
  open: () => { close(): void } = () => Deno.openSync("/dev/null"),
): FreeDescriptors | null {
  const held: { close(): void }[] = [];
  let refused = false;
  try {
    while (held.length < ceiling) held.push(open());
  } catch (error) {
    if (!isDescriptorExhaustion(error)) {
      for (const f of held) f.close();
      return null;
    }
    refused = true;
  }
  const free = held.length;
  for (const f of held) f.close();
  return {
    free,
    atLeast: !refused,
    how: refused
      ? `${free} free file descriptors, counted at start-up`
      : `at least ${free} free file descriptors (counted up to that)`,
  };
}

/** Too many open files (process or system). */
export function isDescriptorExhaustion(error: unknown): boolean {
  return error instanceof Error && /too many open files|EMFILE|ENFILE|os error 2[34]\b/i.test(
    error.message,
  );
}
