/**
 * RDFa lists (`inlist`, RDFa Core 1.1 steps 8-14): the list mapping each new subject starts, the
 * lists it collects, and the rdf:first/rdf:rest chains they become when its element closes.
 */
import { RDF_NS } from "../rdf_terms.ts";
import { type PendingLiteral, type Resource, same } from "./statement.ts";

/** A link waiting for its object: the subjects started below complete it. */
export interface Incomplete {
  p: string;
  dir: "forward" | "reverse" | "none";
  /** The list a "none" (inlist) triple adds its object to. */
  list: ListItem[] | null;
}

type ListItem = Resource | PendingLiteral;

/**
 * A list mapping: the lists an element's subject collects (`inlist`). Step 8 starts a new one
 * for a new subject that differs from the parent object; whether it differs is only asked when
 * a list is first used (comparing would resolve every link's IRI, and lists are rare).
 */
export class ListMapping {
  lists: Map<string, ListItem[]> | null = null;
  constructor(
    readonly subject: Resource,
    private readonly parentObject: Resource | null,
    private readonly parent: ListMapping | null,
  ) {}

  /** The mapping lists really go to: a subject equal to the parent object shares its mapping. */
  owner(): ListMapping {
    const shares = (m: ListMapping) =>
      !!m.parent && !!m.parentObject && same(m.subject, m.parentObject);
    if (!shares(this)) return this;
    let m = this.parent!;
    while (shares(m)) m = m.parent!;
    return m;
  }

  list(p: string): ListItem[] {
    const m = this.owner();
    m.lists ??= new Map();
    let l = m.lists.get(p);
    if (!l) m.lists.set(p, l = []);
    return l;
  }
}

const NIL: Resource = { kind: "resource", blank: false, value: `${RDF_NS}nil` };

/**
 * Step 14: the lists a mapping collected, stated through `emit` as rdf:first/rdf:rest chains
 * of new blank nodes (an empty list is rdf:nil).
 */
export function emitLists(
  own: ListMapping,
  emit: (s: Resource, p: string, o: Resource | PendingLiteral) => void,
  newBlank: () => Resource,
): void {
  if (!own.lists) return;
  for (const [p, items] of own.lists) {
    if (!items.length) {
      emit(own.subject, p, NIL);
      continue;
    }
    const nodes = items.map(() => newBlank());
    emit(own.subject, p, nodes[0]);
    nodes.forEach((n, i) => {
      emit(n, `${RDF_NS}first`, items[i]);
      emit(n, `${RDF_NS}rest`, i + 1 < nodes.length ? nodes[i + 1] : NIL);
    });
  }
}
