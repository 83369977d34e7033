/**
 * How much a question's answers agree with one another, one figure per question and provider: the
 * mean Jaccard similarity of the sites each pair of answers cites (1: every answer cites the same
 * sites; 0: no two share one), and how often pairs agree on whether the site is named. Schulte,
 * Bleeker & Kaufmann ("Don't Measure Once: Measuring Visibility in AI Search", arXiv 2604.07585,
 * 2026-04; https://arxiv.org/abs/2604.07585, checked 2026-12-06 through summaries of it) measure
 * stability with the Jaccard similarity of sources across repeated runs and found it between
 * about 0.3 and 0.4 for the engines they studied: a low figure is normal, not a fault.
 */

/** The agreement of a question's answers. */
export interface Stability {
  /** Answers compared (a figure needs two). */
  answers: number;
  /** Mean pairwise Jaccard similarity of the cited sites, 0..1 (null with fewer than 2 answers). */
  citedSites: number | null;
  /** Share of answer pairs that agree on whether the site is named, 0..1 (null likewise). */
  named: number | null;
}

/** The stability of a list of answers (each: the sites it cites, and whether it names the site). */
export function stabilityOf(answers: { citedSites: string[]; mentioned: boolean }[]): Stability {
  const sets = answers.map((a) => new Set(a.citedSites));
  let pairs = 0;
  let jaccard = 0;
  let agree = 0;
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      pairs++;
      jaccard += similarity(sets[i], sets[j]);
      if (answers[i].mentioned === answers[j].mentioned) agree++;
    }
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    answers: answers.length,
    citedSites: pairs ? round(jaccard / pairs) : null,
    named: pairs ? round(agree / pairs) : null,
  };
}

/** |A ∩ B| / |A ∪ B|; two answers that cite nothing agree fully. */
function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}
