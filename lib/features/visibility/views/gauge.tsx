/**
 * The score graphics, pure SVG (no inline styles: the page CSP forbids them; SVG presentation
 * attributes are fine). Both are decorative: the number and grade are also written out as text.
 */
import type { VNode } from "preact";

const R = 52;
const CIRCUMFERENCE = 2 * Math.PI * R;

/** A ring filled to `score` percent, the score and grade in the middle, coloured by grade. */
export function ScoreGauge(props: { score: number; grade: string }): VNode {
  const score = Math.max(0, Math.min(100, Math.round(props.score)));
  const filled = (CIRCUMFERENCE * score) / 100;
  return (
    <svg
      class={`score-gauge grade-${props.grade}`}
      viewBox="0 0 120 120"
      aria-hidden="true"
      focusable="false"
    >
      <circle class="track" cx="60" cy="60" r={R} fill="none" stroke-width="12" />
      <circle
        class="value"
        cx="60"
        cy="60"
        r={R}
        fill="none"
        stroke-width="12"
        stroke-linecap="round"
        stroke-dasharray={`${filled.toFixed(2)} ${CIRCUMFERENCE.toFixed(2)}`}
        transform="rotate(-90 60 60)"
      />
      <text x="60" y="58" text-anchor="middle" class="gauge-score">{score}</text>
      <text x="60" y="84" text-anchor="middle" class="gauge-grade">{props.grade}</text>
    </svg>
  );
}

/** A thin horizontal bar filled to `value` percent (0-100), in the current text colour. */
export function ScoreBar(props: { value: number; class?: string }): VNode {
  const value = Math.max(0, Math.min(100, props.value));
  return (
    <svg
      class={`score-bar ${props.class ?? ""}`}
      viewBox="0 0 100 6"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <rect class="track" width="100" height="6" rx="3" />
      <rect class="value" width={value.toFixed(1)} height="6" rx="3" />
    </svg>
  );
}
