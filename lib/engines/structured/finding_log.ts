/**
 * Findings as they are collected, bounded: a hostile page can have a finding per node (100,000
 * empty JSON-LD objects in 0.3 MB each lack a @context), and a record that lists each one grew
 * to 28 MB and took the server down when it was viewed (issue 26). So findings are grouped per
 * kind (severity, source, rule, type and property): the first {@link FINDINGS_PER_KIND} of a
 * kind are listed, and the last one listed says how many more of that kind there are (`more`);
 * at most {@link MAX_FINDINGS} are listed in all, and what falls past that is counted in one
 * closing finding per severity that says so. Nothing is lost from the counts: each listed finding
 * stands for `1 + (more ?? 0)` findings ({@link findingCount}).
 *
 * @example
 * ```ts
 * const log = new FindingLog();
 * for (let i = 0; i < 100_000; i++) log.add(missingContext(i));
 * log.list().length; // 50: the first 50, the 50th with more: 99_950
 * ```
 */
import type { Finding } from "./record.ts";

/** Findings of one kind listed before the rest of that kind is only counted. */
export const FINDINGS_PER_KIND = 50;
/**
 * Findings listed in all by one collection point (JSON-LD syntax, validation), the closing
 * findings for kinds not listed included.
 */
export const MAX_FINDINGS = 500;
/** Room kept for the closing findings (one per severity). */
const LISTED = MAX_FINDINGS - 2;

/** How many findings a listed finding stands for (itself and the `more` of its kind). */
export function findingCount(f: Pick<Finding, "more">): number {
  return 1 + (f.more ?? 0);
}

/** " (and 12 more like this, not listed)" for the last listed finding of a kind, else "". */
export function moreLikeThis(f: Pick<Finding, "more">): string {
  return f.more ? ` (and ${f.more.toLocaleString("en-US")} more like this, not listed)` : "";
}

/** How many errors and warnings a list of findings stands for. */
export function countFindings(findings: readonly Finding[]): { errors: number; warnings: number } {
  let errors = 0, warnings = 0;
  for (const f of findings) {
    if (f.severity === "error") errors += findingCount(f);
    else warnings += findingCount(f);
  }
  return { errors, warnings };
}

/** Longest text of a listed finding's fields (they quote the page: an @id, a property name). */
export const MAX_FINDING_TEXT = 1000;

/** A finding with its texts cut to {@link MAX_FINDING_TEXT} characters, without `more`. */
function clipped(f: Finding): Finding {
  const cut = (s: string) => s.length > MAX_FINDING_TEXT ? `${s.slice(0, MAX_FINDING_TEXT)}…` : s;
  const { more: _more, ...rest } = f;
  return {
    ...rest,
    path: cut(f.path),
    type: f.type === null ? null : cut(f.type),
    property: f.property === null ? null : cut(f.property),
    message: cut(f.message),
    rule: cut(f.rule),
  };
}

/** Collects findings per kind, bounded (see the module comment). */
export class FindingLog {
  readonly #listed: Finding[] = [];
  /** Per kind: its last listed finding (it carries `more`), or null when none could be listed. */
  readonly #kinds = new Map<string, { last: Finding | null; listed: number }>();
  /** Findings of kinds with nothing listed (the log was full), per severity. */
  readonly #unlisted = { error: 0, warning: 0 };
  #firstUnlisted: Partial<Record<Finding["severity"], Finding>> = {};

  /** Adds one finding: listed, or counted with its kind. */
  add(f: Finding): void {
    const key = `${f.severity}\u0000${f.source}\u0000${f.rule}\u0000${f.type}\u0000${f.property}`;
    let kind = this.#kinds.get(key);
    if (!kind) {
      kind = { last: null, listed: 0 };
      // Kinds come from the page (an unknown property's name is one): past the cap, they are
      // not remembered one by one.
      if (this.#listed.length < LISTED) this.#kinds.set(key, kind);
    }
    if (kind.listed < FINDINGS_PER_KIND && this.#listed.length < LISTED) {
      const listed = clipped(f);
      this.#listed.push(listed);
      kind.last = listed;
      kind.listed++;
    } else if (kind.last) {
      kind.last.more = (kind.last.more ?? 0) + 1;
    } else {
      this.#unlisted[f.severity]++;
      this.#firstUnlisted[f.severity] ??= f;
    }
  }

  /**
   * The findings listed, in the order they came, then (when the log was full) one finding per
   * severity standing for the findings of kinds that could not be listed.
   */
  list(): Finding[] {
    const out = [...this.#listed];
    for (const severity of ["error", "warning"] as const) {
      const n = this.#unlisted[severity];
      const first = this.#firstUnlisted[severity];
      if (!n || !first) continue;
      out.push({
        severity,
        source: first.source,
        itemIndex: null,
        path: "",
        type: null,
        property: null,
        message: `${n} more ${severity}${n === 1 ? "" : "s"} of other kinds ${
          n === 1 ? "is" : "are"
        } not listed: a report lists at most ${MAX_FINDINGS} findings. The first: ${
          clipped(first).message
        }`,
        rule: clipped(first).rule,
        ...(n > 1 ? { more: n - 1 } : {}),
      });
    }
    return out;
  }
}
