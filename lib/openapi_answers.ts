/**
 * Answer presence's part of the OpenAPI document (lib/openapi.ts): routes/api/answers.ts, under an
 * account's key (its watched sites) or the operator's token (docs/answer-presence.md).
 */
import type { z } from "zod";
import { KeyBodySchema, QuestionsBodySchema } from "./answers/requests.ts";

const json = (ref: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${ref}` } },
});
const object = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: "object" } } },
});
const error = (description: string) => ({ description, content: json("Error") });
const path = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
const domain = path("domain", "A watched domain, e.g. example.com.");
const provider = path("provider", "openai, perplexity, anthropic or gemini.");
const keyed = { tags: ["answers"], security: [{ bearerAuth: [] }] };
const refused = {
  "401": error("No key or token, or an unknown one: `Unauthorized` (never anonymous)."),
  "403": error("A key without an account, or a site the account does not watch."),
};

/** Answer presence's paths. */
export function answerPaths(): Record<string, unknown> {
  return {
    "/api/answers/keys": {
      get: {
        ...keyed,
        operationId: "listAnswerKeys",
        summary: "Which of the account's own vendor keys are set (never the keys)",
        responses: { "200": object("{allowed, keys: [{provider, set, addedAt}]}"), ...refused },
      },
    },
    "/api/answers/keys/{provider}": {
      put: {
        ...keyed,
        operationId: "setAnswerKey",
        summary: "Store the account's own key of a vendor, sealed (ANSWERS_USER_KEYS=1)",
        parameters: [provider],
        requestBody: { required: true, content: json("AnswerKeyRequest") },
        responses: {
          "200": object("{key: {provider, set, addedAt}}: the key is not repeated."),
          "400": error("Not a key."),
          ...refused,
          "404": error("No such provider."),
          "415": error("Not JSON."),
        },
      },
      delete: {
        ...keyed,
        operationId: "deleteAnswerKey",
        summary: "Remove the account's own key of a vendor",
        parameters: [provider],
        responses: { "200": object("{deleted: true}"), ...refused, "404": error("None set.") },
      },
    },
    "/api/answers/{domain}": {
      get: {
        ...keyed,
        operationId: "getAnswerPresence",
        summary: "The plan (questions, providers, estimated cost, budgets left) and the runs",
        parameters: [domain],
        responses: { "200": object("{plan, runs, running}"), ...refused },
      },
    },
    "/api/answers/{domain}/questions": {
      put: {
        ...keyed,
        operationId: "setAnswerQuestions",
        summary: "Set the questions asked about the site, and its competitors",
        parameters: [domain],
        requestBody: { required: true, content: json("AnswerQuestionsRequest") },
        responses: {
          "200": object("{domain, questions, competitors, origin}"),
          "400": error("Too many questions, a question too short or long, not a domain."),
          ...refused,
          "415": error("Not JSON."),
        },
      },
    },
    "/api/answers/{domain}/runs": {
      post: {
        ...keyed,
        operationId: "startAnswerRun",
        summary: "Ask the configured assistants every question N times (costs money)",
        description: "The run's calls are reserved against the account's and the instance's " +
          "budgets of the day first; over budget, nothing is spent. The run goes on in the " +
          "background: read its Location.",
        parameters: [domain],
        responses: {
          "202": object("{run, estimate}; Location: the run."),
          ...refused,
          "409": error("No provider configured, or a run of the site in progress."),
          "429": {
            description: "A budget of calls per day would be exceeded; nothing was spent.",
            content: json("RateLimited"),
          },
        },
      },
    },
    "/api/answers/{domain}/runs/{id}": {
      get: {
        ...keyed,
        operationId: "getAnswerRun",
        summary: "A run's results per provider and question, and its answers with their sources",
        parameters: [domain, path("id", "The run's id."), {
          name: "answers",
          in: "query",
          required: false,
          description: "0: leave the answers out.",
          schema: { type: "string", enum: ["0", "1"] },
        }],
        responses: { "200": object("{run, kept, answers}"), ...refused, "404": error("No run.") },
      },
    },
  };
}

/** Answer presence's request schemas. */
export function answerSchemas(
  jsonSchema: (schema: z.ZodType, io: "input" | "output") => unknown,
): Record<string, unknown> {
  return {
    AnswerQuestionsRequest: jsonSchema(QuestionsBodySchema, "input"),
    AnswerKeyRequest: jsonSchema(KeyBodySchema, "input"),
  };
}
