/**
 * What the connection guard reads of a response passing through it: whether it closes its
 * connection, and where it ends. Only the head is decoded (a few hundred bytes), never the body.
 */

const latin1 = new TextDecoder("latin1");
/** A head longer than this is not looked at (ours are under 1 KiB). */
const MAX_HEAD = 8192;

/** Where the blank line that ends a head in `buf[0..n)` starts, or -1. */
function headEnd(buf: Uint8Array, n: number): number {
  const last = Math.min(n, MAX_HEAD) - 3;
  for (let i = 0; i < last; i++) {
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return i;
  }
  return -1;
}

/**
 * The whole length of a response that asks to close its connection (`Connection: close` and a
 * Content-Length, its head in the first `n` bytes of `buf`), or -1.
 */
export function closingLength(buf: Uint8Array, n: number): number {
  const end = headEnd(buf, n);
  if (end < 0) return -1;
  const head = latin1.decode(buf.subarray(0, end + 2));
  if (!/\r\nconnection:[ \t]*close[ \t]*\r\n/i.test(head)) return -1;
  const length = head.match(/\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i);
  return length ? end + 4 + Number(length[1]) : -1;
}
