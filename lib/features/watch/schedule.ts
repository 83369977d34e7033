/**
 * When a watch runs: a daily or weekly period, and inside it a stable offset of the watch's own
 * (derived from its id), so a thousand watches created at the same minute are spread over the
 * whole period instead of all running at once, and each keeps its time of day (or week) for as
 * long as it exists.
 */
import { createHash } from "node:crypto";
import type { Schedule } from "./store_types.ts";

/** The schedules a watch can have. */
export const SCHEDULES = ["daily", "weekly"] as const satisfies readonly Schedule[];
export type { Schedule };

/** The length of each schedule's period, in ms. */
export const PERIOD_MS: Record<Schedule, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
};

/** Whether a string names a schedule. */
export function isSchedule(value: string): value is Schedule {
  return (SCHEDULES as readonly string[]).includes(value);
}

/**
 * The watch's offset inside its period: the first 6 bytes of SHA-256(id) modulo the period, so
 * the same id always gets the same offset and ids spread evenly.
 */
export function offsetOf(watchId: string, schedule: Schedule): number {
  const digest = createHash("sha256").update(watchId).digest();
  return digest.readUIntBE(0, 6) % PERIOD_MS[schedule];
}

/** The watch's first slot strictly after `after` (ms since the epoch). */
export function nextSlot(watchId: string, schedule: Schedule, after: number): number {
  const period = PERIOD_MS[schedule];
  const offset = offsetOf(watchId, schedule);
  const index = Math.floor((after - offset) / period);
  return index * period + offset + period;
}
