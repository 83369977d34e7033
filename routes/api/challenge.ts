/** GET /api/challenge: a fresh ALTCHA challenge for the form's widget (404 when Turnstile is used). */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../lib/web/context.ts";
import { NotFoundError } from "../../lib/errors.ts";

/** The /api/challenge route. */
export function challengeRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    if (!deps.challenge.issue) throw new NotFoundError();
    c.header("Cache-Control", "no-store");
    // ?level=hard: the harder check a sign-in past its failure limits needs.
    return c.json(await deps.challenge.issue({ hard: c.req.query("level") === "hard" }));
  });
  return app;
}
