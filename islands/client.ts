/** Browser entry: hydrates every server-rendered island on the page. */
import { h, hydrate } from "preact";
import { ISLANDS } from "./registry.ts";

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const component = ISLANDS[el.dataset.island ?? ""];
  if (!component) continue;
  let props = {};
  try {
    props = JSON.parse(el.dataset.props ?? "{}");
  } catch {
    continue;
  }
  hydrate(h(component, props), el);
}
