/**
 * The note a report shows when its record was over the size budget and summarised
 * (lib/kit/limits/record_budget.ts): what the page shows is not the whole of what was found.
 */
import type { VNode } from "preact";
import type { RecordBudget } from "../limits/record_budget.ts";

/** The record's `budget` note, or nothing. */
export function BudgetNote(props: { budget?: RecordBudget }): VNode | null {
  if (!props.budget) return null;
  return <p class="card status-warn" role="note">{props.budget.note}</p>;
}
