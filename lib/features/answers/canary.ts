/**
 * The canary panel: a small fixed set of questions, the same on every instance and in every run,
 * asked once each of every provider a run asks, so that a model the vendor changed behind the same
 * name shows. Their answers are short facts that do not change (a chemical symbol, a count, a
 * planet), so a model that keeps answering them the same way keeps the same reading of the
 * canary; the run compares this reading with the provider's previous one:
 *
 * - the vendor reports another model than before (its `model` field; a dated snapshot behind an
 *   alias changes it): "changed";
 * - the same model name, but at least {@link CHANGED_ANSWERS} of the {@link CANARY_QUESTIONS}
 *   short answers differ from before: "changed silently";
 * - a canary that did not answer is "not read", never a change.
 *
 * The canary's answers are counted nowhere else: they are not the site's questions. A change
 * between two runs is said beside their comparison, since a difference may then come from the
 * model rather than from the site.
 */

/** The fixed questions (the panel), each with the short answer a model should give. */
export const CANARY_QUESTIONS = [
  "Answer with one word only: what is the chemical symbol for gold?",
  "Answer with one number only: how many days are in a leap year?",
  "Answer with one word only: which planet is closest to the Sun?",
] as const;

/** Answers that must differ (with the same model name) to read as a silent change. */
export const CHANGED_ANSWERS = 2;

/** One provider's reading of the panel. */
export interface CanaryPrint {
  /** The model the vendor says answered (the last answer's), or null. */
  model: string | null;
  /** Each question's short answer, normalised; null where the call failed. */
  answers: (string | null)[];
  at: number;
}

/** How a provider's canary compares with its previous reading. */
export interface CanaryVerdict {
  status: "first" | "same" | "changed" | "changed_silently" | "not_read";
  /** In words, for the report. */
  text: string;
  print: CanaryPrint;
  /** When the previous reading was taken (ms), or null. */
  previousAt: number | null;
}

/** The short form of an answer: its first word, lower case, without citation marks. */
export function shortAnswer(text: string): string {
  const plain = text.toLowerCase().replace(/\[[^\]]{0,20}\]/g, " ").replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return plain.split(" ")[0]?.slice(0, 40) ?? "";
}

/** Compares this reading with the previous one of the same provider and model name. */
export function compareCanary(
  label: string,
  print: CanaryPrint,
  previous: CanaryPrint | null,
): CanaryVerdict {
  const answered = print.answers.filter((a) => a !== null).length;
  if (answered === 0) {
    return {
      status: "not_read",
      text: `${label}'s canary questions got no answer: a model change cannot be told this time.`,
      print,
      previousAt: previous?.at ?? null,
    };
  }
  if (!previous) {
    return {
      status: "first",
      text: `First canary reading of ${label} (${print.model ?? "model not reported"}): later ` +
        "runs are compared with it.",
      print,
      previousAt: null,
    };
  }
  if (print.model && previous.model && print.model !== previous.model) {
    return {
      status: "changed",
      text: `${label} now reports the model ${print.model} (before: ${previous.model}): ` +
        "differences from the previous run may come from the model, not the site.",
      print,
      previousAt: previous.at,
    };
  }
  const differ =
    print.answers.filter((a, i) =>
      a !== null && previous.answers[i] !== null && a !== previous.answers[i]
    ).length;
  if (differ >= CHANGED_ANSWERS) {
    return {
      status: "changed_silently",
      text: `${label} answered ${differ} of the ${CANARY_QUESTIONS.length} fixed canary ` +
        "questions differently from its previous reading under the same model name: the model " +
        "may have changed silently; differences from the previous run may come from it.",
      print,
      previousAt: previous.at,
    };
  }
  return {
    status: "same",
    text: `${label}'s canary answers match its previous reading (${
      print.model ?? "model not reported"
    }).`,
    print,
    previousAt: previous.at,
  };
}
