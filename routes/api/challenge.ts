/** GET /api/challenge: a fresh ALTCHA challenge for the form's widget (404 when Turnstile is used). */
import type { RouteDef } from "../../lib/kit/web/route.ts";
import { NotFoundError } from "../../lib/kit/errors.ts";
import { PATHS } from "../../lib/kit/report_urls.ts";

/** GET /api/challenge. */
export const challengeRoute: RouteDef = {
  path: PATHS.challenge,
  handlers: (deps) => ({
    GET: async (c) => {
      if (!deps.challenge.issue) throw new NotFoundError();
      c.header("Cache-Control", "no-store");
      // ?level=hard: the harder check a sign-in past its failure limits needs.
      return c.json(await deps.challenge.issue({ hard: c.req.query("level") === "hard" }));
    },
  }),
};
