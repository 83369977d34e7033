/**
 * Applying a report's fix as a site owner would, by reading its steps: "replace lines A-B with this
 * group", "delete line N", "add this group at the end (or the top)" of robots.txt, and "paste into
 * the <head>" of a page. Used by the browser test that rescans a fixture site after its fixes.
 */
import { parseHow } from "../../lib/engines/visibility/fix_text.ts";

/** robots.txt after the steps of a robots.txt fix's `how`, in the order they are written. */
export function applyRobotsHow(robots: string, how: string): string {
  let lines = robots.replace(/\n$/, "").split("\n");
  const parts = parseHow(how);
  let applied = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.kind !== "prose") continue;
    const next = parts[i + 1];
    const code = next?.kind === "code" ? next.code.split("\n") : null;
    const replace = part.text.match(/replace lines (\d+)-(\d+)\b/);
    const del = part.text.match(/delete line (\d+)\b/);
    if (replace && code) {
      const [a, b] = [Number(replace[1]), Number(replace[2])];
      lines = [...lines.slice(0, a - 1), ...code, ...lines.slice(b)];
      applied++;
    } else if (del) {
      lines.splice(Number(del[1]) - 1, 1);
      applied++;
    } else if (/add (this group|these groups) at the end/i.test(part.text) && code) {
      lines = [...lines, "", ...code];
      applied++;
    } else if (/add (this group|these groups) at the top/i.test(part.text) && code) {
      lines = [...code, "", ...lines];
      applied++;
    }
  }
  if (!applied) throw new Error(`no robots.txt step to apply in:\n${how}`);
  return lines.join("\n") + "\n";
}

/** A page with the first code block of a "paste into the <head>" fix pasted before `</head>`. */
export function pasteIntoHead(html: string, how: string): string {
  const code = parseHow(how).find((p) => p.kind === "code");
  if (!code || code.kind !== "code") throw new Error(`no code to paste in:\n${how}`);
  return html.replace("</head>", `${code.code}\n</head>`);
}
