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
import { stabilityOf } from "./stability.ts";
import { type VoiceLine, voiceOf } from "./voice.ts";

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

/** Per question and overall, from one provider's samples (in the order they were asked). */
export function tally(
  samples: Sample[],
  questions: number,
): { questions: QuestionResult[]; overall: Measures; voice: VoiceLine[] } {
  const answered = (list: Sample[]) => list.filter((s) => s.ok && s.presence);
  const perQuestion = Array.from({ length: questions }, (_, q): QuestionResult => {
    const mine = samples.filter((s) => s.question === q);
    const ok = answered(mine);
    const ranks = ok.map((s) => s.presence!.citedRank).filter((r): r is number => r !== null)
      .sort((a, b) => a - b);
    return {
      question: q,
      asked: mine.length,
      answered: ok.length,
      measures: measuresOf(ok.map((s) => s.presence!)),
      stability: stabilityOf(ok.map((s) => s.presence!)),
      citedRank: {
        best: ranks[0] ?? null,
        median: ranks.length ? ranks[Math.floor((ranks.length - 1) / 2)] : null,
      },
      queries: queryCounts(ok),
    };
  });
  const all = answered(samples).map((s) => s.presence!);
  return { questions: perQuestion, overall: measuresOf(all), voice: voiceOf(all) };
}

/** The searches run for a question's answers, most frequent first (at most 10). */
function queryCounts(samples: Sample[]): { query: string; answers: number }[] {
  const counts = new Map<string, number>();
  for (const s of samples) {
    for (const q of new Set(s.queries)) counts.set(q, (counts.get(q) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10)
    .map(([query, answers]) => ({ query, answers }));
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
