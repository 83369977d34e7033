import assert from "node:assert/strict";
import { validateLlmsTxt } from "../lib/engines/visibility/llms_txt.ts";

const BASE = "https://shop.example/llms.txt";

Deno.test("[llms.txt] a file in the llmstxt.org format is valid", () => {
  const r = validateLlmsTxt(
    "# Shop\n\n> We roast coffee in Leeds.\n\nSome notes.\n\n## Pages\n\n- [About](https://shop.example/about): who we are\n- [FAQ](/faq)\n\n## Optional\n\n- [Blog](https://shop.example/blog)\n",
    BASE,
  );
  assert.equal(r.valid, true);
  assert.deepEqual(r.problems, []);
  assert.equal(r.title, "Shop");
  assert.equal(r.links, 3);
  assert.equal(r.sections, 2);
});

Deno.test("[llms.txt] v2: Optional is an ordinary section, its links counted like any other", () => {
  const r = validateLlmsTxt("# Shop\n\n> S\n\n## Optional\n\n- [Blog](/blog)\n", BASE);
  assert.equal(r.valid, true);
  assert.deepEqual(r.problems, []);
  assert.equal(r.links, 1);
});

Deno.test("[llms.txt] each departure from the format is named", async (t) => {
  await t.step("no H1", () => {
    const r = validateLlmsTxt("Shop\n\n## Pages\n- [A](https://a.example/)\n", BASE);
    assert.equal(r.valid, false);
    assert.match(r.problems.join(";"), /first line must be an H1/);
  });
  await t.step("no summary", () => {
    const r = validateLlmsTxt("# Shop\n\n## Pages\n- [A](https://a.example/)\n", BASE);
    assert.equal(r.valid, true);
    assert.match(r.problems.join(";"), /blockquote summary/);
  });
  await t.step("no sections: valid under v2 (the H1 is the only required part), but named", () => {
    const r = validateLlmsTxt("# Shop\n> Summary\n", BASE);
    assert.equal(r.valid, true);
    assert.match(r.problems.join(";"), /no ## sections/);
  });
  await t.step("list items that are not links", () => {
    const r = validateLlmsTxt(
      "# Shop\n> S\n## Pages\n- just text\n- [ok](https://a.example/)\n",
      BASE,
    );
    assert.match(r.problems.join(";"), /1 list items are not/);
  });
  await t.step("an HTML page", () => {
    const r = validateLlmsTxt("<!DOCTYPE html><html><body>404</body></html>", BASE);
    assert.equal(r.valid, false);
    assert.match(r.problems[0], /HTML page/);
  });
});
