/**
 * Behaviour of the server-rendered copy buttons (lib/kit/ui/copy_button.tsx): shows them, and copies
 * the text of the element named by `data-copy` on click, saying "Copied" for a moment. If the
 * clipboard is refused, the text is selected so the visitor can press Ctrl+C.
 */
export function enableCopyButtons(root: Document = document): void {
  for (const b of root.querySelectorAll<HTMLButtonElement>("button[data-copy]")) b.hidden = false;
  root.addEventListener("click", async (event) => {
    const button = (event.target as Element | null)?.closest?.("button[data-copy]") as
      | HTMLButtonElement
      | null;
    if (!button) return;
    const id = button.dataset.copy ?? "";
    const status = button.parentElement?.querySelector<HTMLElement>(".copy-status");
    const label = button.firstChild;
    try {
      await navigator.clipboard.writeText(root.getElementById(id)?.textContent ?? "");
      if (label) label.textContent = "Copied";
      if (status) status.textContent = "Copied to the clipboard.";
    } catch {
      select(root, id);
      if (status) {
        status.textContent = "Copying is blocked here: the text is selected, press Ctrl+C.";
      }
    }
    setTimeout(() => {
      if (label) label.textContent = "Copy";
      if (status) status.textContent = "";
    }, 2500);
  });
}

function select(root: Document, id: string): void {
  const el = root.getElementById(id);
  const selection = globalThis.getSelection?.();
  if (!el || !selection) return;
  const range = root.createRange();
  range.selectNodeContents(el);
  selection.removeAllRanges();
  selection.addRange(range);
}
