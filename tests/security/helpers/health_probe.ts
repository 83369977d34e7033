/**
 * /healthz probed every 50 ms while a test attacks the server: how slow the server's own thread
 * got. A probe over 200 ms is slow; the runs of consecutive slow probes say whether the server
 * stalled (one slow probe on a loaded 2-core machine is noise, three in a row are a stall).
 */

/** What the probes saw. */
export interface HealthReport {
  probes: number;
  /** The slowest probe, in ms. */
  max: number;
  over200: number;
  /** The longest run of consecutive probes over 200 ms. */
  worstRun: number;
  failures: string[];
}

/** Starts probing `base`/healthz; `stop()` ends it and reports. */
export function probeHealth(base: string): { stop(): Promise<HealthReport> } {
  let stop = false;
  const latencies: number[] = [];
  const failures: string[] = [];
  const done = (async () => {
    while (!stop) {
      const t = performance.now();
      try {
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
        await res.body?.cancel();
        if (res.status !== 200) failures.push(`status ${res.status}`);
      } catch (e) {
        failures.push(String(e));
      }
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      stop = true;
      await done;
      let run = 0, worstRun = 0;
      for (const ms of latencies) {
        run = ms > 200 ? run + 1 : 0;
        worstRun = Math.max(worstRun, run);
      }
      return {
        probes: latencies.length,
        max: Math.round(Math.max(...latencies)),
        over200: latencies.filter((ms) => ms > 200).length,
        worstRun,
        failures,
      };
    },
  };
}
