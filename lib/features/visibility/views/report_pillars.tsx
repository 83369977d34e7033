/**
 * "Every check, by pillar": each pillar collapsed to its title and score, one click from its
 * signals. The pillar that holds a gate capping the score says so on its summary line and starts
 * open. Every signal's name links to the page that explains it (/learn/<id>).
 */
import type { VNode } from "preact";
import type { Pillar, Signal } from "../../../engines/visibility/record.ts";
import type { CapInfo } from "../../../engines/visibility/score.ts";
import { gateText } from "../../../engines/visibility/learn.ts";
import { learnPath } from "../../../kit/report_urls.ts";
import { ScoreBar } from "./gauge.tsx";
import {
  gradeOf,
  PILLAR_PURPOSE,
  round1,
  STATUS_TEXT,
} from "../../../engines/visibility/report_texts.ts";

/** Every pillar with its signals. */
export function PillarsSection(
  props: { pillars: Pillar[]; cap: CapInfo | null; issueNumbers: Map<string, number> },
): VNode {
  return (
    <section aria-labelledby="pillars-title">
      <h2 id="pillars-title">Every check, by pillar</h2>
      <p class="muted">
        The score adds up six pillars, each weighted by how much it matters to AI systems. Checks
        that could not be made or do not apply are left out of the sums. The name of each check
        links to what it means, why AI systems care and how we test it.
      </p>
      {props.pillars.map((p) => (
        <PillarCard key={p.id} pillar={p} cap={props.cap} issueNumbers={props.issueNumbers} />
      ))}
    </section>
  );
}

function PillarCard(
  props: { pillar: Pillar; cap: CapInfo | null; issueNumbers: Map<string, number> },
): VNode {
  const p = props.pillar;
  const scored = p.signals.filter((s) => s.maxPoints > 0);
  const passed = scored.filter((s) => s.status === "pass").length;
  const grade = gradeOf(p.score);
  const gates = p.signals.filter((s) => s.gate);
  const capsHere = props.cap?.pillarId === p.id;
  const attention = p.signals.filter((s) => s.status === "fail" || s.status === "warn");
  const fine = p.signals.filter((s) => s.status !== "fail" && s.status !== "warn");
  return (
    <details class="card pillar" id={`pillar-${p.id}`} open={capsHere}>
      <summary class="pillar-head">
        <span class="pillar-name">
          <strong>{p.title}</strong>{" "}
          <span class="muted small">
            {attention.length ? `${attention.length} to improve` : "all fine"}
          </span>
        </span>
        <span class={`pillar-score grade-${grade}`}>
          {Math.round(p.score)}
          <span class="muted">/100</span>
        </span>
      </summary>
      {gates.length > 0 && (
        <p class="gate pillar-gate">
          <strong>
            This pillar caps the whole score at {Math.min(...gates.map((s) => s.gate!.cap))}
          </strong>
          {": "}
          {gates.map((s) => gateText(s.gate!.id)?.name ?? s.gate!.id).join("; ")}. Its own score
          counts only once that is fixed.
        </p>
      )}
      <ScoreBar value={p.score} class={`grade-${grade}`} />
      <p class="muted pillar-purpose">
        {PILLAR_PURPOSE[p.id] ?? ""} {passed} of {scored.length}{" "}
        scored checks passed. This pillar counts for {p.weight}% of the score and earns{" "}
        {round1(p.points)} of {p.weight} points.
      </p>
      {attention.length > 0 && (
        <ul class="signals">
          {attention.map((s) => (
            <SignalItem key={s.id} signal={s} issue={props.issueNumbers.get(s.id)} />
          ))}
        </ul>
      )}
      {fine.length > 0 && (
        <details class="passed">
          <summary>
            {fine.length} more check{fine.length === 1 ? "" : "s"}{" "}
            {attention.length ? "that passed or are for information" : "(all fine)"}
          </summary>
          <ul class="signals">
            {fine.map((s) => <SignalItem key={s.id} signal={s} />)}
          </ul>
        </details>
      )}
    </details>
  );
}

/** Evidence lines shown per signal (the full list is in the JSON record). */
const MAX_EVIDENCE = 6;

function SignalItem(props: { signal: Signal; issue?: number }): VNode {
  const s = props.signal;
  return (
    <li class={`signal signal-${s.status}`}>
      <div class="signal-head">
        <span class={`badge status-${s.status}`}>{STATUS_TEXT[s.status]}</span>
        <a class="signal-title" href={learnPath(s.id)}>{s.title}</a>
        {s.maxPoints > 0 && (
          <span class="points">
            {round1(s.points)}/{round1(s.maxPoints)} pts
          </span>
        )}
      </div>
      {props.issue
        ? (
          <p class="signal-detail">
            See <a href={`#issue-${props.issue}`}>fix {props.issue}</a>{" "}
            for what we saw and how to fix it.
          </p>
        )
        : <p class="signal-detail">{s.detail}</p>}
      {s.gate && s.status !== "pass" && (
        <p class="gate">This caps the whole score at {s.gate.cap}.</p>
      )}
      {s.evidence.length > 0 && s.status !== "pass" && s.status !== "na" && (
        <details class="evidence">
          <summary>What we saw ({s.evidence.length})</summary>
          <ul>
            {s.evidence.slice(0, MAX_EVIDENCE).map((e) => (
              <li>
                <code>{e}</code>
              </li>
            ))}
            {s.evidence.length > MAX_EVIDENCE && (
              <li class="muted">and {s.evidence.length - MAX_EVIDENCE} more in the JSON report</li>
            )}
          </ul>
        </details>
      )}
    </li>
  );
}
