/**
 * GET /healthz (lib/kit/health.ts): 200 with the checks when this process can serve, 503 otherwise.
 * The answer is kept for one second, so a flood of probes costs one round of checks a second.
 */
import type { RouteDef } from "../lib/kit/web/route.ts";
import { checkHealth, type Health } from "../lib/kit/health.ts";
import { PATHS } from "../lib/kit/report_urls.ts";

/** GET /healthz. */
export const healthRoute: RouteDef = {
  path: PATHS.healthz,
  handlers: (deps) => {
    let last: { at: number; health: Promise<Health> } | null = null;
    return {
      GET: async (c) => {
        const t = Date.now();
        if (!last || t - last.at >= 1000) {
          last = { at: t, health: checkHealth(deps.store, deps.now, deps.threads?.stats?.()) };
        }
        const health = await last.health;
        c.header("Cache-Control", "no-store");
        // Turnstile failing is reported (the operator must act) but does not make the process unready.
        const challenge = deps.challenge.health?.();
        return c.json(challenge ? { ...health, challenge } : health, health.ok ? 200 : 503);
      },
    };
  },
};
