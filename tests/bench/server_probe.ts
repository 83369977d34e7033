/**
 * What the benchmarks that start `main.ts` as a process read of it: the /healthz answer that says
 * it serves, and its resident memory (RSS) sampled while a load runs.
 */

/** Resident memory of process `pid` in bytes (from /proc; 0 when it cannot be read). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) * 1024;
}

/** Polls `${base}/healthz` every 100 ms until it answers, at most `tries` times. */
export async function untilHealthy(base: string, tries: number): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      await (await fetch(`${base}/healthz`)).body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Samples the RSS of `pid` every `everyMs`: its idle value now, and the peak when stopped. */
export async function rssSampler(
  pid: number,
  everyMs: number,
): Promise<{ idle: number; stop(): number }> {
  const idle = await rssOf(pid);
  let peak = idle;
  const timer = setInterval(async () => peak = Math.max(peak, await rssOf(pid)), everyMs);
  return {
    idle,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
