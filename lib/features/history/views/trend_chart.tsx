/**
 * The score over the kept scans as a small server-rendered SVG line chart: no script, no client
 * library, no inline styles (presentation attributes and classes only, so the CSP holds). Failed
 * scans have no score and are left out. The time axis (first and last scan) is HTML `<time>`
 * under the chart, so it reads in the reader's time zone like the list beside it
 * (lib/kit/ui/local_time.tsx); the chart's own title and tooltips say UTC, and say so.
 */
import type { VNode } from "preact";
import { formatUtc } from "../../../kit/ui/format.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";

/** One point: when, and the score out of 100. */
export interface TrendPoint {
  scannedAt: string;
  score: number;
}

const W = 320;
const H = 86;
const PAD = { left: 28, right: 8, top: 8, bottom: 8 };

/** The chart's points in SVG coordinates (oldest left), spaced by scan, not by time. */
export function trendCoordinates(points: TrendPoint[]): { x: number; y: number }[] {
  const w = W - PAD.left - PAD.right;
  const h = H - PAD.top - PAD.bottom;
  const step = points.length > 1 ? w / (points.length - 1) : 0;
  return points.map((p, i) => ({
    x: Math.round((PAD.left + (points.length > 1 ? i * step : w / 2)) * 10) / 10,
    y: Math.round((PAD.top + h - (Math.max(0, Math.min(100, p.score)) / 100) * h) * 10) / 10,
  }));
}

/** The score trend of `points` (oldest first); nothing for fewer than two scored scans. */
export function TrendChart(props: { points: TrendPoint[]; title?: string }): VNode | null {
  const points = props.points;
  if (points.length < 2) return null;
  const xy = trendCoordinates(points);
  const first = points[0];
  const last = points[points.length - 1];
  const label = `${props.title ?? "Score over time"}: ${points.length} scans, from ${
    Math.round(first.score)
  } on ${formatUtc(first.scannedAt)} to ${Math.round(last.score)} on ${formatUtc(last.scannedAt)}`;
  const gridY = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / 100);
  return (
    <figure class="trend">
      <svg
        class="trend-chart"
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={label}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title>{label}</title>
        {[0, 50, 100].map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={gridY(v)}
              y2={gridY(v)}
              stroke="currentColor"
              stroke-opacity="0.15"
            />
            <text
              x={PAD.left - 4}
              y={gridY(v) + 3}
              text-anchor="end"
              font-size="9"
              fill="currentColor"
            >
              {v}
            </text>
          </g>
        ))}
        <polyline
          points={xy.map((p) => `${p.x},${p.y}`).join(" ")}
          fill="none"
          stroke="currentColor"
          stroke-width="2"
          stroke-linejoin="round"
        />
        {xy.length <= 60 &&
          xy.map((p, i) => (
            <circle key={i} cx={p.x} cy={p.y} r="2.5" fill="currentColor">
              <title>{`${Math.round(points[i].score)} on ${formatUtc(points[i].scannedAt)}`}</title>
            </circle>
          ))}
      </svg>
      <figcaption class="trend-axis">
        <LocalTime iso={first.scannedAt} />
        <LocalTime iso={last.scannedAt} />
      </figcaption>
    </figure>
  );
}
