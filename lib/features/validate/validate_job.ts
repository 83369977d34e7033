/**
 * One code validation as a scan thread runs it (this module is the thread's "validate-code" job,
 * lib/kit/isolate/protocol.ts ThreadJobModule, named by lib/app/server.ts): everything that
 * touches the visitor's bytes happens here, off the server's thread and inside the thread's heap
 * and time limits: decoding the body, parsing it (JSON or a form), checking its nesting and its
 * fields, the analysis, and writing the answer's JSON. The server's thread only reads the capped
 * bytes and sends on the answer (lib/features/validate/validate_request.ts).
 *
 * Client errors come back as an answer with a 4xx status and a message, never as a thrown error:
 * JSON nested deeper than {@link MAX_JSON_DEPTH} is a 400 that names the limit (it used to be a 500
 * "Maximum call stack size exceeded" from the schema check and the answer's serialisation).
 *
 * An answer is at most {@link maxAnswerBytes} of JSON for its input (twice the input's size plus
 * 64 KiB); a larger one is summarised as a record is (lib/kit/limits/record_budget.ts) and says so.
 */
import { z } from "zod";
import {
  type RecordBudget,
  RecordBudgetSchema,
  withinBudget,
} from "../../kit/limits/record_budget.ts";
import { type Result, ResultSchema } from "../../engines/structured/record.ts";
import { type CodeInput, CodeInputError, MAX_CODE_BYTES, validateCode } from "./validate_code.ts";

/** Deepest nesting of a JSON body (and of JSON-LD sent as an object) accepted. */
export const MAX_JSON_DEPTH = 64;

/** The largest answer for an input of `inputBytes`: twice its size plus 64 KiB. */
export function maxAnswerBytes(inputBytes: number): number {
  return 2 * inputBytes + 64 * 1024;
}

/** The body of POST /api/validate (and the input of MCP validate_code). */
export const ValidateRequestSchema = z.object({
  html: z.string({ error: "html must be a string" }).optional(),
  jsonld: z.union([z.string(), z.record(z.string(), z.json()), z.array(z.json())], {
    error: "jsonld must be a string, an object or an array",
  }).optional(),
  url: z.string({ error: "url must be a string" }).max(2048, "url is longer than 2048 characters")
    .optional(),
}).strict();

/** The 200 body of POST /api/validate. */
export const ValidateResponseSchema = z.object({
  status: z.literal("ok"),
  validatedAt: z.iso.datetime(),
  /** The same result a scan record carries (page.fetchMs is 0: nothing was fetched). */
  result: ResultSchema,
  /** Set when the answer was over its size budget and summarised. */
  budget: RecordBudgetSchema.optional(),
});

/**
 * A code validation for a thread: the request's body as read (its UTF-8 decoded, not parsed:
 * text, because Deno's worker_threads take about a second to pass 1 MB as bytes), or fields
 * already parsed (MCP).
 */
export type ValidateJob =
  | { kind: "validate-code"; body: string; as: "json" | "form" }
  | { kind: "validate-code"; input: CodeInput };

/** What a validation gives: a status, and the result's JSON or what was wrong. */
export interface ValidateAnswer {
  /** 200, or the 4xx of a client error (400, 413). */
  status: number;
  /** For a 4xx: what was wrong, for a person. */
  error?: string;
  /**
   * For a 200: `{"result": ..., "budget"?: ...}` as JSON, to send on without parsing it; at most
   * {@link maxAnswerBytes} of the input.
   */
  json?: string;
  /** The form's fields as posted (the /validate page shows them again), when they were read. */
  code?: string;
  url?: string;
}

const encoder = new TextEncoder();

/** Runs a validation job (see the module comment). Never throws for anything the input does. */
export function runValidateJob(job: ValidateJob): ValidateAnswer {
  let echo: { code?: string; url?: string } = {};
  try {
    let input: CodeInput;
    let inputBytes: number;
    if ("input" in job) {
      input = job.input;
      if (input.jsonld !== undefined) tooDeep(input.jsonld);
      inputBytes = encoder.encode(JSON.stringify(input)).byteLength;
    } else {
      const text = job.body;
      inputBytes = encoder.encode(text).byteLength;
      if (job.as === "form") {
        const form = new URLSearchParams(text);
        const field = (name: string) => {
          const values = form.getAll(name);
          return values.length === 1 ? values[0] : "";
        };
        const code = field("code");
        const url = field("url").trim();
        echo = { code, url };
        const trimmed = code.trim();
        input = /^[[{]/.test(trimmed)
          ? { jsonld: trimmed, url: url || undefined }
          : { html: code, url: url || undefined };
      } else {
        input = parseJsonBody(text);
      }
    }
    const result = validateCode(input);
    return { status: 200, json: boundedAnswer(result, inputBytes), ...echo };
  } catch (e) {
    if (e instanceof ClientError) return { status: e.status, error: e.message, ...echo };
    // The analysis bounds its nesting; a stack still exhausted is the input's doing, not ours.
    if (e instanceof RangeError) {
      return {
        status: 400,
        error: `The code is nested too deeply to analyse (this service reads ${MAX_JSON_DEPTH} ` +
          "levels).",
        ...echo,
      };
    }
    if (e instanceof CodeInputError) {
      return e.tooLarge
        ? { status: 413, error: `The code is larger than ${MAX_CODE_BYTES} bytes.`, ...echo }
        : { status: 400, error: e.message, ...echo };
    }
    throw e;
  }
}

/** A 4xx found while reading the input. */
class ClientError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The JSON body of POST /api/validate, checked: nesting first, then its fields. */
function parseJsonBody(text: string): CodeInput {
  if (!text.trim()) throw new ClientError(400, "Request body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ClientError(400, "Request body is not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ClientError(400, "Request body must be a JSON object");
  }
  tooDeep(value);
  const parsed = ValidateRequestSchema.safeParse(value);
  if (!parsed.success) {
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      if (!seen.has(path)) parts.push(issue.message);
      seen.add(path);
    }
    throw new ClientError(400, parts.join("; ") || "Invalid request body");
  }
  return parsed.data;
}

/** Throws a 400 naming the limit when `value` nests deeper than {@link MAX_JSON_DEPTH} (iterative). */
function tooDeep(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > MAX_JSON_DEPTH) {
      throw new ClientError(
        400,
        `The JSON is nested more than ${MAX_JSON_DEPTH} levels deep, the most this service reads.`,
      );
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
}

/** The answer's JSON, summarised when over {@link maxAnswerBytes} of the input. */
function boundedAnswer(result: Result, inputBytes: number): string {
  const json = JSON.stringify({ result });
  const limit = maxAnswerBytes(inputBytes);
  if (encoder.encode(json).byteLength <= limit) return json;
  const bounded = withinBudget<{ status: string; result: unknown; budget?: RecordBudget }>(
    { status: "ok", result },
    limit,
  );
  // Nothing fitted (the result was dropped): the input is answered as too large.
  if (bounded.result === null) {
    throw new ClientError(413, `The answer for this code would be larger than ${limit} bytes.`);
  }
  return JSON.stringify({ result: bounded.result, budget: bounded.budget });
}

/** The thread's entry point for this job kind (lib/kit/isolate/protocol.ts ThreadJobModule). */
export const runJob: (job: ValidateJob) => ValidateAnswer = runValidateJob;
