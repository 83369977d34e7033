/**
 * The parts of an API-key table that the dashboard's key manager (an island) and the admin page
 * share: the header row and the cells every row has. Status and actions differ, so callers add
 * them.
 */
import type { VNode } from "preact";
import { LocalTimeMs } from "./local_time.tsx";

/** The header row: name, key, created, last used, status, actions. */
export function KeyTableHead(): VNode {
  return (
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Key</th>
        <th scope="col">Created</th>
        <th scope="col">Last used</th>
        <th scope="col">Status</th>
        <th scope="col">
          <span class="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

/** The name, key prefix, created and last-used cells of a key's row. */
export function KeyCells(
  props: { name: string; prefix: string; createdAt: number; lastUsedAt: number | null },
): VNode {
  return (
    <>
      <td data-label="Name" class="key-name">{props.name}</td>
      <td data-label="Key">
        <code>{props.prefix}…</code>
      </td>
      <td data-label="Created">
        <LocalTimeMs ms={props.createdAt} />
      </td>
      <td data-label="Last used">
        <LocalTimeMs ms={props.lastUsedAt} />
      </td>
    </>
  );
}
