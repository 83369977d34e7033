/** Hydrates every server-rendered island of a registry (shared by the two browser entries). */
import { type ComponentType, h, hydrate } from "preact";

// deno-lint-ignore no-explicit-any
export function hydrateIslands(registry: Record<string, ComponentType<any>>): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
    const component = registry[el.dataset.island ?? ""];
    if (!component) continue;
    let props = {};
    try {
      props = JSON.parse(el.dataset.props ?? "{}");
    } catch {
      continue;
    }
    hydrate(h(component, props), el);
  }
}
