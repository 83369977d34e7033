/**
 * Live progress of a running scan, shown by /report/<domain> while the domain is in flight. It
 * polls the scan's status URL (GET /api/scans/<id>, lib/engines/history/service.ts) every 1.5 s (the
 * spec's 1-2 s pattern) and shows the step the worker is really on: the status's typed `stepId`
 * places the scan on a row of the service's card (lib/service.ts ProgressRow), never the words of
 * the step; when the scan is done or failed it loads the report. The page is server-rendered from
 * the in-flight mark, so a reload shows the same progress.
 */
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { reportPagePath } from "../lib/kit/report_urls.ts";

export type ScanProgressProps = {
  domain: string;
  /** The scan's status URL (GET /api/scans/<id>). */
  statusUrl: string;
  /** scannedAt of the record the page was rendered with (null: none yet). */
  knownScannedAt: string | null;
  /** How long the scan had been running when the page was rendered. */
  elapsedMs: number;
  /** What a scan does, in order: each row with the typed step ids that put the scan on it. */
  steps: { label: string; steps: string[] }[];
  /** Where to go when the scan is done (default: the domain's report page). */
  reportUrl?: string;
};

const POLL_MS = 1500;
const SLOW_AFTER_S = 45;

/** The row of `steps` the worker's typed step id is on (its index), or -1. */
export function stepIndex(steps: ScanProgressProps["steps"], stepId: string | null): number {
  if (!stepId) return -1;
  return steps.findIndex((row) => row.steps.includes(stepId));
}

/** The progress card: the worker's real step, elapsed time, and the hand-over to the report. */
export function ScanProgress(props: ScanProgressProps): VNode {
  const [elapsed, setElapsed] = useState(Math.floor(props.elapsedMs / 1000));
  const [done, setDone] = useState(false);
  const [offline, setOffline] = useState(false);
  // The furthest step reached: the worker's steps overlap (the off-site lookups start while the
  // sitemaps are still fetched), and the card never goes backwards.
  const [state, setState] = useState<{ status: string; step: string | null; reached: number }>({
    status: "queued",
    step: null,
    reached: 0,
  });

  useEffect(() => {
    const started = Date.now() - props.elapsedMs;
    const tick = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(props.statusUrl, {
          cache: "no-store",
          headers: { accept: "application/json" },
        });
        setOffline(false);
        if (res.ok) {
          const s = await res.json() as {
            status: string;
            step: string | null;
            stepId?: string | null;
            report: { page: string } | null;
          };
          setState((prev) => ({
            status: s.status,
            step: s.step,
            reached: s.status === "queued"
              ? 0
              : Math.max(prev.reached, 1, stepIndex(props.steps, s.stepId ?? null)),
          }));
          if (s.status === "done" || s.status === "failed") {
            stopped = true;
            setDone(true);
            location.replace(props.reportUrl ?? reportPagePath(props.domain));
            return;
          }
        } else if (res.status === 404) {
          // The scan is no longer followed (long gone): the report page knows the rest.
          await res.body?.cancel();
          stopped = true;
          location.replace(props.reportUrl ?? reportPagePath(props.domain));
          return;
        } else await res.body?.cancel();
      } catch {
        setOffline(true);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    poll();
    return () => {
      stopped = true;
      clearInterval(tick);
      clearTimeout(timer);
    };
  }, []);

  // Queued: the first step ("waiting for a free scanner"); running: the step the worker names.
  const current = state.reached;
  return (
    <section class="card progress-card" aria-labelledby="progress-title">
      <h2 id="progress-title">
        {done ? "Scan finished: opening the report…" : `Scanning ${props.domain}…`}
      </h2>
      <progress class="scan-progress" aria-label={`Scan of ${props.domain} in progress`} />
      <ol class="steps">
        {props.steps.map((s, i) => (
          <li
            class={i < current || done ? "step done" : i === current ? "step current" : "step"}
            aria-current={i === current && !done ? "step" : undefined}
          >
            {s.label}
          </li>
        ))}
      </ol>
      <p class="muted" aria-live="polite">
        {state.step && !done ? <span class="worker-step">Now: {state.step}.</span> : null}{" "}
        <span class="elapsed">{elapsed} s</span>{" "}
        elapsed. Most scans take 5 to 20 seconds. This page updates by itself; you can also leave
        and come back to this address.
      </p>
      {elapsed >= SLOW_AFTER_S && !done && (
        <p class="notice">
          This is taking longer than usual: the site may be slow to answer. Every scan ends within a
          minute or two, with a report or an explanation of what went wrong.
        </p>
      )}
      {offline && (
        <p class="notice error" role="alert">
          Lost contact with the server. Still trying…
        </p>
      )}
    </section>
  );
}
