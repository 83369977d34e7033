/**
 * A provider's answers counted: per question and over every question, how many answers named the
 * site, cited it, cited only competitors, retrieved it without citing it, each as k of N answers
 * with its Wilson 95% interval (N: the answers received; a failed call is listed, never counted as
 * an absence). And what changed since the owner's previous run: only a rate whose interval no
 * longer overlaps the previous one (wilson.ts `separated`).
 */
import type { Presence } from "./presence.ts";
import type {
  AnswerRun,
  Change,
  MeasureName,
  Measures,
  ProviderResult,
  QuestionResult,
  Sample,
} from "./run_types.ts";
import { separated, wilson } from "./wilson.ts";

/** The measures, in the order reports show them. */
export const MEASURES: readonly MeasureName[] = [
  "mentioned",
  "cited",
  "competitorOnly",
  "retrievedNotCited",
];

/** The four rates of a list of answers. */
export function measuresOf(presences: Presence[]): Measures {
  const n = presences.length;
  const k = (m: MeasureName) => presences.filter((p) => p[m]).length;
  return {
    mentioned: wilson(k("mentioned"), n),
    cited: wilson(k("cited"), n),
    competitorOnly: wilson(k("competitorOnly"), n),
    retrievedNotCited: wilson(k("retrievedNotCited"), n),
  };
}

/** Per question and overall, from one provider's samples. */
export function tally(
  samples: Sample[],
  questions: number,
): { questions: QuestionResult[]; overall: Measures } {
  const answered = (list: Sample[]) =>
    list.filter((s) => s.ok && s.presence).map((s) => s.presence!);
  const perQuestion = Array.from({ length: questions }, (_, q) => {
    const mine = samples.filter((s) => s.question === q);
    return {
      question: q,
      asked: mine.length,
      answered: answered(mine).length,
      measures: measuresOf(answered(mine)),
    };
  });
  return { questions: perQuestion, overall: measuresOf(answered(samples)) };
}

/**
 * The rates of `run` that moved since `previous`: per question (matched by its text) and, when
 * both runs asked the same questions, over every question.
 */
export function changesSince(
  previous: AnswerRun | null,
  run: AnswerRun,
  provider: ProviderResult,
): Change[] {
  const before = previous?.providers.find((p) => p.id === provider.id);
  if (!previous || !before) return [];
  const out: Change[] = [];
  const text = (r: AnswerRun, i: number) => r.questions[i]?.text.toLowerCase() ?? "";
  for (const q of provider.questions) {
    const earlier = before.questions.find((b) =>
      text(previous, b.question) === text(run, q.question)
    );
    if (earlier) out.push(...moved(earlier.measures, q.measures, run.questions[q.question].text));
  }
  const same = previous.questions.length === run.questions.length &&
    previous.questions.every((q, i) => q.text.toLowerCase() === text(run, i));
  if (same) out.push(...moved(before.overall, provider.overall, null));
  return out;
}

function moved(a: Measures, b: Measures, question: string | null): Change[] {
  const out: Change[] = [];
  for (const m of MEASURES) {
    const direction = separated(a[m], b[m]);
    if (direction) out.push({ question, measure: m, direction, before: a[m], after: b[m] });
  }
  return out;
}
