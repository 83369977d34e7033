import assert from "node:assert/strict";
import { LinearParser, PARSE_CAPS } from "../lib/engines/html/linear_parser.ts";
import { parseDom } from "../lib/engines/structured/dom.ts";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";

/** Parses `html`, counting events. */
function parse(html: string) {
  let opened = 0, closed = 0, ends = 0, depth = 0, maxDepth = 0;
  const attributes: number[] = [];
  const parser = new LinearParser({
    onopentag: (_name, attribs) => {
      opened++;
      maxDepth = Math.max(maxDepth, ++depth);
      attributes.push(Object.keys(attribs).length);
    },
    onclosetag: () => {
      closed++;
      depth--;
    },
    onend: () => ends++,
  }, { decodeEntities: true, lowerCaseTags: true });
  parser.end(html);
  return { parser, opened, closed, ends, attributes, maxDepth };
}

Deno.test("[parse caps] an ordinary page reaches no cap", () => {
  const r = parse("<html><body>" + "<div class=a id=b><p>text</p></div>".repeat(1000) + "</body>");
  assert.equal(r.parser.capped.size, 0);
  assert.equal(r.opened, 2002);
  assert.equal(r.closed, r.opened);
  assert.equal(r.ends, 1);
});

Deno.test("[parse caps] past the element cap the parse stops there and ends once", () => {
  const r = parse("<body>" + "<i>x</i>".repeat(PARSE_CAPS.elements + 5000) + "<b>late</b>");
  assert.deepEqual([...r.parser.capped], ["elements"]);
  assert.equal(r.opened, PARSE_CAPS.elements);
  assert.equal(r.closed, r.opened, "every element opened is closed");
  assert.equal(r.ends, 1);
});

Deno.test("[parse caps] a page nested past the element cap stops there; DOM and facts stay usable", () => {
  const html = "<html><head><title>Deep</title></head><body>" +
    "<div>".repeat(PARSE_CAPS.elements + 1000);
  const r = parse(html);
  assert.deepEqual([...r.parser.capped], ["elements"]);
  assert.equal(r.maxDepth, PARSE_CAPS.elements - 2, "html and body stay open; head closed");
  assert.equal(r.closed, r.opened);
  assert.equal(r.ends, 1);
  assert.equal(extractPageFacts(html, "https://deep.example/").title, "Deep");
  assert.ok(parseDom(html).children.length > 0);
});

Deno.test("[parse caps] attributes of one element past the cap are ignored; later elements keep theirs", () => {
  const attrs = Array.from({ length: 5000 }, (_, i) => ` a${i}="v"`).join("");
  const r = parse(`<div${attrs}>x</div><p class="kept" id="p1">y</p>`);
  assert.deepEqual([...r.parser.capped], ["attributesPerElement"]);
  assert.deepEqual(r.attributes, [PARSE_CAPS.attributesPerElement, 2]);
  assert.equal(r.ends, 1);
});
