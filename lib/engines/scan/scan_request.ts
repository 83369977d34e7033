/** The body of POST /api/scan (and the MCP scan tool's input), as the spec defines it. */
import { z } from "zod";
import { MAX_TOKEN_LENGTH } from "../../kit/auth/challenge.ts";

/** The request body, as the spec defines it (lib/features/report/routes/api/scan.ts; OpenAPI derives from it). */
export const ScanRequestSchema = z.object({
  url: z.string({
    error: (i) => i.input === undefined ? "url is required" : "url must be a string",
  })
    .trim().min(1, "url must not be empty").max(2048, "url is longer than 2048 characters"),
  forceRescan: z.boolean({ error: "forceRescan must be true or false" }).optional(),
  turnstileToken: z.string({ error: "turnstileToken must be a string" })
    .max(MAX_TOKEN_LENGTH, "turnstileToken is too long").optional(),
  /** Additive: also render the pages in a browser (docs/rendering.md). */
  render: z.boolean({ error: "render must be true or false" }).optional(),
});

/** Largest accepted body. */
export const MAX_SCAN_BODY = 16 * 1024;
