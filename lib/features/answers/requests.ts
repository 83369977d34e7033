/** The bodies the answer-presence API accepts (lib/features/answers/routes/api/answers.ts, the OpenAPI text). */
import { z } from "zod";

/** PUT /api/answers/:domain/questions. */
export const QuestionsBodySchema = z.object({
  questions: z.array(z.string().max(1000)).max(50).optional()
    .describe("1 to ANSWERS_MAX_QUESTIONS questions, 8-300 characters each."),
  competitors: z.array(z.string().max(300)).max(50).optional()
    .describe(
      'Up to 10 competitors\' domains (or URLs), each optionally followed by " = Name": ' +
        "'competitor only' and share of voice count these.",
    ),
}).strict();

/** PUT /api/answers/keys/:provider. */
export const KeyBodySchema = z.object({
  apiKey: z.string().max(600).describe("The vendor's API key; stored sealed, never shown again."),
}).strict();
