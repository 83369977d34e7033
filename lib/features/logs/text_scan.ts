/**
 * A chunk's text read line by line in place, without a string per line: a format's fast check
 * (formats.ts `checkAt`) looks at a line by its bounds in the chunk, and finds characters with the
 * runtime's own search. A search that finds nothing before the line's end would otherwise run on
 * through the rest of the chunk for every line (quadratic on a hostile chunk); here the position
 * found is kept, and a later search from before it answers at once, so however the lines are
 * shaped each part of the text is searched at most once for each thing looked for.
 */

/** One text being read, and where the User-Agent of the line last checked is. */
export class TextScan {
  /** The text (a chunk, or a line of its own). */
  text = "";
  /**
   * The bounds of the User-Agent of the line last checked: `agentStart` < 0 when the agent could
   * not be cut out (test the whole line), equal bounds when the line has none.
   */
  agentStart = 0;
  agentEnd = 0;
  /** Characters the searches went over in this text (what the test of linearity reads). */
  searched = 0;
  #space = -2;
  #bracket = -2;
  #sep = -2;

  /** Starts on a new text (every kept position is forgotten). */
  reset(text: string): void {
    this.text = text;
    this.searched = 0;
    this.#space = this.#bracket = this.#sep = -2;
  }

  // Each finder: the first occurrence at or after `from`, or -1. Calls to one finder never go
  // backwards within a text (lines are read in order, and a check reads a line forwards), so a
  // kept position at or after `from` is the answer.

  /** The next space. */
  space(from: number): number {
    const known = this.#space;
    return known === -1 || known >= from ? known : this.#space = this.#find(" ", from);
  }

  /** The next `]`. */
  bracket(from: number): number {
    const known = this.#bracket;
    return known === -1 || known >= from ? known : this.#bracket = this.#find("]", from);
  }

  /** The next `" "` (the end of one quoted field and the start of the next). */
  fieldBreak(from: number): number {
    const known = this.#sep;
    return known === -1 || known >= from ? known : this.#sep = this.#find('" "', from);
  }

  #find(needle: string, from: number): number {
    const at = this.text.indexOf(needle, from);
    this.searched += (at < 0 ? this.text.length : at) - from;
    return at;
  }
}
