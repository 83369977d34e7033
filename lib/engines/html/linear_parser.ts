/**
 * htmlparser2's SAX `Parser`, made linear in nesting depth.
 *
 * The stock parser keeps its open-element stack top-first with `Array#unshift`/`Array#shift`,
 * which copy the whole array on every tag: a page nested 100,000 deep took ~8 s, and a hostile
 * 2 MB page of unclosed `<b>` tags would take minutes. We swap that stack (and the
 * foreign-content stack, handled the same way) for {@link TopFirstStack}, which offers the same
 * top-first API backed by push/pop plus a per-name count so `indexOf`/`includes` for a name
 * that is not open answer in O(1).
 *
 * This reaches into private fields of htmlparser2 (pinned in deno.json); when they are not
 * where we expect them the swap is skipped and the stock (slow but correct) stack stays.
 */
import { type Handler, Parser, type ParserOptions } from "htmlparser2";

/** The subset of Parser internals this module touches. */
interface ParserInternals {
  stack: unknown;
  foreignContext: unknown;
  cbs: Partial<Handler>;
  attribvalue: string;
}

/**
 * Caps that bound what a page can make a parse hold, whatever the page: past
 * {@link PARSE_CAPS.elements} elements the parse stops there (the page is analysed up to that
 * point, as if it ended), and attributes of one element past
 * {@link PARSE_CAPS.attributesPerElement} are ignored. Depth needs no cap of its own: it cannot
 * exceed the element cap, and the stacks below keep its cost linear (pages nested 100,000 deep
 * are parsed, and tested). No ordinary page comes near the caps (a large page has some 10,000
 * elements). {@link LinearParser.capped} says which cap was reached.
 */
export const PARSE_CAPS = {
  elements: 200_000,
  attributesPerElement: 256,
} as const;

/** Which cap stopped or trimmed a parse. */
export type ParseCap = keyof typeof PARSE_CAPS;

/**
 * A stack exposing the top-first array API htmlparser2 uses (`[0]` is the top, `unshift` pushes,
 * `shift` pops) in O(1) per operation. Index access other than `[0]` is not supported, which is
 * why {@link LinearParser} overrides `onend`, the only place the parser reads deeper indices.
 */
export class TopFirstStack<T> {
  /**
   * The top entry, as `array[0]` is for the parser's top-first arrays. A plain data property
   * kept in sync on every push/pop: the parser reads it for every tag, and an accessor at an
   * index key sends V8 down a slow path (measured: 2x slower parsing).
   */
  0: T | undefined = undefined;
  /** Bottom first, so push/pop work at the cheap end. */
  private readonly items: T[] = [];
  private readonly counts = new Map<T, number>();

  /** Number of entries. Setting it truncates from the top (the parser only ever sets 0). */
  get length(): number {
    return this.items.length;
  }

  set length(n: number) {
    while (this.items.length > n) this.shift();
  }

  /** Pushes onto the top; returns the new length like `Array#unshift`. */
  unshift(item: T): number {
    this.items.push(item);
    this[0] = item;
    this.counts.set(item, (this.counts.get(item) ?? 0) + 1);
    return this.items.length;
  }

  /** Pops the top entry. */
  shift(): T | undefined {
    if (this.items.length === 0) return undefined;
    const item = this.items.pop() as T;
    this[0] = this.items[this.items.length - 1];
    const left = (this.counts.get(item) ?? 1) - 1;
    if (left === 0) this.counts.delete(item);
    else this.counts.set(item, left);
    return item;
  }

  /**
   * Distance from the top of the nearest `item`, or -1. The parser pops everything above a
   * found entry, so the scan is paid for by those pops; absent names never scan.
   */
  indexOf(item: T): number {
    if (!this.counts.has(item)) return -1;
    const last = this.items.length - 1;
    for (let i = last; i >= 0; i--) {
      if (this.items[i] === item) return last - i;
    }
    return -1;
  }

  /** Whether `item` is anywhere on the stack, in O(1). */
  includes(item: T): boolean {
    return this.counts.has(item);
  }
}

/**
 * htmlparser2 `Parser` whose element stacks are {@link TopFirstStack}s, so parse time stays
 * linear however deep the page nests. Same constructor and events as `Parser`.
 */
export class LinearParser extends Parser {
  /** The caps this parse reached (empty for any ordinary page). */
  readonly capped = new Set<ParseCap>();
  #elements = 0;
  #attributes = 0;
  #stopped = false;

  /** Same arguments as htmlparser2's `Parser`. */
  constructor(cbs?: Partial<Handler> | null, options?: ParserOptions) {
    super(cbs, options);
    const internals = this as unknown as ParserInternals;
    if (
      Array.isArray(internals.stack) && internals.stack.length === 0 &&
      Array.isArray(internals.foreignContext) && internals.foreignContext.length === 1
    ) {
      const foreign = new TopFirstStack<unknown>();
      foreign.unshift(internals.foreignContext[0]);
      internals.stack = new TopFirstStack<string>();
      internals.foreignContext = foreign;
    }
  }

  /** Counts elements; past the cap the parse stops (see {@link PARSE_CAPS}). @internal */
  override onopentagname(start: number, endIndex: number): void {
    if (this.#stopped) return;
    this.#attributes = 0;
    if (++this.#elements > PARSE_CAPS.elements) {
      this.capped.add("elements");
      this.#stopped = true;
      this.pause();
      return;
    }
    super.onopentagname(start, endIndex);
  }

  /** Ignores attributes past the per-element cap. @internal */
  override onattribend(quote: number, endIndex: number): void {
    if (++this.#attributes > PARSE_CAPS.attributesPerElement) {
      this.capped.add("attributesPerElement");
      (this as unknown as ParserInternals).attribvalue = "";
      return;
    }
    super.onattribend(quote, endIndex);
  }

  /** Once a cap stopped the parse, resuming (as `end` does) would carry on: it stays stopped. */
  override resume(): void {
    if (!this.#stopped) super.resume();
  }

  /**
   * Ends the parse; a parse stopped by a cap ends where it stopped, its open elements closed.
   */
  override end(chunk?: string): void {
    if (!this.#stopped) super.end(chunk);
    if (this.#stopped) this.onend();
  }

  /**
   * The stock `onend` closes open elements by walking `stack[index]`; close them top-first
   * here instead (same events, same order), leaving the stock loop nothing to do.
   * @internal
   */
  override onend(): void {
    const internals = this as unknown as ParserInternals;
    const stack = internals.stack;
    if (stack instanceof TopFirstStack) {
      while (stack.length > 0) {
        internals.cbs.onclosetag?.(stack.shift() as string, true);
      }
    }
    super.onend();
  }
}
