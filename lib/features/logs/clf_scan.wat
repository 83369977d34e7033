;; The byte scanner of Common Log Format lines (lib/features/logs/clf_bytes.ts loads it; the
;; bytes it is built into are lib/features/logs/clf_scan_wasm.ts, written by `deno task wasm`
;; from this file and held to it by tests/features/logs/clf_bytes_test.ts).
;;
;; It reads the complete lines of a piece of a log and tells apart the lines a person's visit
;; leaves, which the reader only counts, from every other line, which it hands back to the reader
;; by its bounds: a line is counted here only when the reader's own test (clf.ts checkClfAt, then
;; the agents' prefilter, crawler_match.ts AgentFilter) would drop it, and every test below is that
;; test's, byte for byte, on a line of ASCII characters. Any line holding a NUL or a byte of 0x80
;; or more, any line longer than the reader's cap, and any line whose shape or User-Agent the
;; tests below are not sure of goes back to the reader. Each line is read once, from its start to
;; its end, sixteen bytes at a time for the characters searched (a space, `]`, `"`, the anchors'
;; first characters), each search also stopping at the line's end, a NUL or a byte of 0x80 or more.
;;
;; Memory (byte offsets):
;;   260..264   the anchors' first characters, in both cases (at most 4; the places not used
;;              repeat the first)
;;   512        the number of anchors; from 516 each anchor: its length (one byte), its bytes in
;;              lower case (an ASCII letter also matches its upper case; anything else only itself)
;;   2048..2060 the last scan's lines read, lines counted here, lines handed back
;;   4096..     the lines handed back: (start, end, line) as three i32, at most 4096 of them
;;   65536..    the bytes scanned, followed by at least 16 bytes the scanner may read and ignore
(module
  (memory (export "memory") 8)

  ;; Set by $line: 1 when the line it read is one the reader drops, 0 when it goes back to it.
  (global $dropped (mut i32) (i32.const 0))

  ;; The lowest set bit of a block's mask as an offset, or 16 when none is set (bits past `n`
  ;; dropped).
  (func $first (param $m i32) (param $p i32) (param $n i32) (result i32)
    (if (i32.lt_u (i32.sub (local.get $n) (local.get $p)) (i32.const 16))
      (then
        (local.set $m
          (i32.and
            (local.get $m)
            (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $n) (local.get $p))) (i32.const 1))))))
    (if (result i32) (local.get $m)
      (then (i32.ctz (local.get $m)))
      (else (i32.const 16))))

  ;; The first `c`, line end, NUL or byte of 0x80 or more in [p, n), or n.
  (func $seek (param $p i32) (param $n i32) (param $c i32) (result i32)
    (local $v v128) (local $want v128) (local $at i32) (local $lf v128) (local $nul v128)
    (local.set $want (i8x16.splat (local.get $c)))
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $nul (i8x16.splat (i32.const 0)))
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $at
          (call $first
            (i8x16.bitmask
              (v128.or
                (v128.or (i8x16.eq (local.get $v) (local.get $lf)) (i8x16.eq (local.get $v) (local.get $nul)))
                (v128.or (i8x16.lt_s (local.get $v) (local.get $nul)) (i8x16.eq (local.get $v) (local.get $want)))))
            (local.get $p)
            (local.get $n)))
        (if (i32.lt_u (local.get $at) (i32.const 16))
          (then (return (i32.add (local.get $p) (local.get $at)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (local.get $n))

  ;; The first anchor's first character, line end, NUL or byte of 0x80 or more in [p, n), or n.
  (func $seek_anchor (param $p i32) (param $n i32) (result i32)
    (local $v v128) (local $at i32) (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128)
    (local $lf v128) (local $nul v128)
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $nul (i8x16.splat (i32.const 0)))
    ;; The first characters (four places: those not used repeat the first).
    (local.set $f0 (i8x16.splat (i32.load8_u (i32.const 260))))
    (local.set $f1 (i8x16.splat (i32.load8_u (i32.const 261))))
    (local.set $f2 (i8x16.splat (i32.load8_u (i32.const 262))))
    (local.set $f3 (i8x16.splat (i32.load8_u (i32.const 263))))
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $at
          (call $first
            (i8x16.bitmask
              (v128.or
                (v128.or
                  (v128.or (i8x16.eq (local.get $v) (local.get $lf)) (i8x16.eq (local.get $v) (local.get $nul)))
                  (i8x16.lt_s (local.get $v) (local.get $nul)))
                (v128.or
                  (v128.or (i8x16.eq (local.get $v) (local.get $f0)) (i8x16.eq (local.get $v) (local.get $f1)))
                  (v128.or (i8x16.eq (local.get $v) (local.get $f2)) (i8x16.eq (local.get $v) (local.get $f3))))))
            (local.get $p)
            (local.get $n)))
        (if (i32.lt_u (local.get $at) (i32.const 16))
          (then (return (i32.add (local.get $p) (local.get $at)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (local.get $n))

  ;; The first `\n` in [p, n), or -1.
  (func $line_end (param $p i32) (param $n i32) (result i32)
    (local $at i32)
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $at
          (call $first
            (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 10))))
            (local.get $p)
            (local.get $n)))
        (if (i32.lt_u (local.get $at) (i32.const 16))
          (then (return (i32.add (local.get $p) (local.get $at)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (i32.const -1))

  ;; Whether an anchor starts at `at` and ends by `n` (AgentFilter's `anchored`; anchors hold no
  ;; `"`, `\r` or `\n`, so one found in a line ends before its User-Agent's closing quote).
  (func $anchored (param $at i32) (param $n i32) (result i32)
    (local $a i32) (local $count i32) (local $len i32) (local $i i32) (local $c i32) (local $w i32)
    (local $same i32)
    (local.set $count (i32.load (i32.const 512)))
    (local.set $a (i32.const 516))
    (block $done
      (loop $anchors
        (br_if $done (i32.eqz (local.get $count)))
        (local.set $len (i32.load8_u (local.get $a)))
        (if (i32.le_u (i32.add (local.get $at) (local.get $len)) (local.get $n))
          (then
            (local.set $same (i32.const 1))
            (local.set $i (i32.const 0))
            (block $differs
              (loop $chars
                (br_if $differs (i32.ge_u (local.get $i) (local.get $len)))
                (local.set $c (i32.load8_u (i32.add (local.get $at) (local.get $i))))
                (local.set $w (i32.load8_u (i32.add (i32.add (local.get $a) (i32.const 1)) (local.get $i))))
                (if (i32.ne (local.get $c) (local.get $w))
                  (then
                    ;; A lower-case letter also matches its upper case (0x20 apart).
                    (if (i32.or
                          (i32.or (i32.lt_u (local.get $w) (i32.const 97)) (i32.gt_u (local.get $w) (i32.const 122)))
                          (i32.ne (local.get $c) (i32.sub (local.get $w) (i32.const 32))))
                      (then
                        (local.set $same (i32.const 0))
                        (br $differs)))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $chars)))
            (if (local.get $same) (then (return (i32.const 1))))))
        (local.set $a (i32.add (local.get $a) (i32.add (local.get $len) (i32.const 1))))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $anchors)))
    (i32.const 0))

  ;; The byte at `at`, or 0 at or past `n`.
  (func $byte (param $at i32) (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $at) (local.get $n))
      (then (i32.load8_u (local.get $at)))
      (else (i32.const 0))))

  ;; Reads the line that starts at `s`: returns its `\n` (or -1 when none comes before `n`), and
  ;; sets $dropped. A line is dropped when it is all ASCII without a NUL, no longer than
  ;; `max_line`, has checkClfAt's shape and, for the combined format, a User-Agent cut out for sure
  ;; that holds no anchor.
  (func $line (param $s i32) (param $n i32) (param $combined i32) (param $max_line i32) (result i32)
    (local $a i32) (local $at i32) (local $from i32) (local $c i32) (local $field i32)
    (local $close i32) (local $inside i32) (local $q i32) (local $sep i32) (local $nl i32)
    (local $end i32) (local $last i32)
    (global.set $dropped (i32.const 0))
    (block $back
      ;; host: up to the first space, not empty
      (local.set $a (call $seek (local.get $s) (local.get $n) (i32.const 32)))
      (br_if $back (i32.ne (call $byte (local.get $a) (local.get $n)) (i32.const 32)))
      (br_if $back (i32.eq (local.get $a) (local.get $s)))
      ;; ident and user: no white space inside (nor anything but ASCII), one space after each
      (local.set $at (i32.add (local.get $a) (i32.const 1)))
      (local.set $field (i32.const 0))
      (loop $fields
        (local.set $from (local.get $at))
        (local.set $c (call $byte (local.get $at) (local.get $n)))
        (block $word_done
          (loop $word
            (br_if $word_done (i32.le_u (local.get $c) (i32.const 32)))
            (br_if $word_done (i32.ge_u (local.get $c) (i32.const 128)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (local.set $c (call $byte (local.get $at) (local.get $n)))
            (br $word)))
        (br_if $back (i32.eq (local.get $at) (local.get $from)))
        (br_if $back (i32.ne (local.get $c) (i32.const 32)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (local.set $field (i32.add (local.get $field) (i32.const 1)))
        (br_if $fields (i32.lt_u (local.get $field) (i32.const 2))))
      ;; [time] of 20 to 40 characters, then a space and the request's opening quote
      (br_if $back (i32.ne (call $byte (local.get $at) (local.get $n)) (i32.const 91)))
      (local.set $close (call $seek (i32.add (local.get $at) (i32.const 1)) (local.get $n) (i32.const 93)))
      (br_if $back (i32.ne (call $byte (local.get $close) (local.get $n)) (i32.const 93)))
      (local.set $inside (i32.sub (i32.sub (local.get $close) (local.get $at)) (i32.const 1)))
      (br_if $back (i32.lt_s (local.get $inside) (i32.const 20)))
      (br_if $back (i32.gt_s (local.get $inside) (i32.const 40)))
      (br_if $back (i32.ne (call $byte (i32.add (local.get $close) (i32.const 1)) (local.get $n)) (i32.const 32)))
      (br_if $back (i32.ne (call $byte (i32.add (local.get $close) (i32.const 2)) (local.get $n)) (i32.const 34)))
      (if (local.get $combined)
        (then
          ;; the User-Agent: after the first `" "` from the request on
          (local.set $q (i32.add (local.get $close) (i32.const 3)))
          (block $found
            (loop $quotes
              (local.set $q (call $seek (local.get $q) (local.get $n) (i32.const 34)))
              (br_if $back (i32.ne (call $byte (local.get $q) (local.get $n)) (i32.const 34)))
              (if (i32.eq (call $byte (i32.add (local.get $q) (i32.const 1)) (local.get $n)) (i32.const 32))
                (then
                  (if (i32.eq (call $byte (i32.add (local.get $q) (i32.const 2)) (local.get $n)) (i32.const 34))
                    (then (br $found)))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $quotes)))
          (local.set $sep (local.get $q))
          ;; to the line's end: no anchor in it (nor anything but ASCII)
          (local.set $q (i32.add (local.get $sep) (i32.const 3)))
          (block $at_end
            (loop $agent
              (local.set $q (call $seek_anchor (local.get $q) (local.get $n)))
              (local.set $c (call $byte (local.get $q) (local.get $n)))
              (br_if $at_end (i32.eq (local.get $c) (i32.const 10)))
              (br_if $back (i32.eqz (local.get $c)))
              (br_if $back (i32.ge_u (local.get $c) (i32.const 128)))
              (br_if $back (call $anchored (local.get $q) (local.get $n)))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $agent)))
          (local.set $nl (local.get $q)))
        (else
          ;; the rest of the line: nothing but ASCII
          (local.set $nl (call $seek (i32.add (local.get $close) (i32.const 3)) (local.get $n) (i32.const 10)))
          (br_if $back (i32.ne (call $byte (local.get $nl) (local.get $n)) (i32.const 10)))))
      ;; A carriage return before the `\n` is not the line's (the reader drops it too).
      (local.set $end (local.get $nl))
      (if (i32.eq (i32.load8_u (i32.sub (local.get $end) (i32.const 1))) (i32.const 13))
        (then (local.set $end (i32.sub (local.get $end) (i32.const 1)))))
      (br_if $back (i32.gt_u (i32.sub (local.get $end) (local.get $s)) (local.get $max_line)))
      (if (local.get $combined)
        (then
          ;; the agent ends with the closing quote at the line's end, after the `" "`, and that
          ;; `" "` is not an escaped quote's
          (local.set $last (i32.sub (local.get $end) (i32.const 1)))
          (br_if $back (i32.ge_s (i32.add (local.get $sep) (i32.const 2)) (local.get $last)))
          (br_if $back (i32.ne (i32.load8_u (local.get $last)) (i32.const 34)))
          (br_if $back (i32.eq (i32.load8_u (i32.sub (local.get $sep) (i32.const 1))) (i32.const 92)))))
      (global.set $dropped (i32.const 1))
      (return (local.get $nl)))
    ;; Back to the reader: only its end is looked for.
    (call $line_end (local.get $s) (local.get $n)))

  ;; Reads the complete lines of [start, n) (absolute offsets). Returns where it stopped: the
  ;; start of the first line without its `\n`, or of the line after the 4096th handed back.
  (func (export "scan") (param $start i32) (param $n i32) (param $combined i32) (param $max_line i32)
    (result i32)
    (local $p i32) (local $nl i32) (local $lines i32) (local $counted i32) (local $back i32)
    (local $r i32)
    (local.set $p (local.get $start))
    (block $stop
      (loop $each
        (br_if $stop (i32.ge_u (local.get $back) (i32.const 4096)))
        (local.set $nl (call $line (local.get $p) (local.get $n) (local.get $combined) (local.get $max_line)))
        (br_if $stop (i32.lt_s (local.get $nl) (i32.const 0)))
        (if (global.get $dropped)
          (then (local.set $counted (i32.add (local.get $counted) (i32.const 1))))
          (else
            (local.set $r (i32.add (i32.const 4096) (i32.mul (local.get $back) (i32.const 12))))
            (i32.store (local.get $r) (local.get $p))
            (i32.store offset=4 (local.get $r) (local.get $nl))
            (i32.store offset=8 (local.get $r) (local.get $lines))
            (local.set $back (i32.add (local.get $back) (i32.const 1)))))
        (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
        (local.set $p (i32.add (local.get $nl) (i32.const 1)))
        (br $each)))
    (i32.store (i32.const 2048) (local.get $lines))
    (i32.store (i32.const 2052) (local.get $counted))
    (i32.store (i32.const 2056) (local.get $back))
    (local.get $p))
)
