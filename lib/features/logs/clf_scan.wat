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
;; tests below are not sure of goes back to the reader. Sixteen bytes are looked at a time for the
;; characters searched (a line's end, a space, `]`, `"`, the anchors' first characters).
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

  ;; Set by $line_end: the line holds a NUL or a byte of 0x80 or more.
  (global $odd (mut i32) (i32.const 0))

  ;; The first `c` in [p, end), or -1.
  (func $find (param $p i32) (param $end i32) (param $c i32) (result i32)
    (local $want v128) (local $m i32)
    (local.set $want (i8x16.splat (local.get $c)))
    (block $short
      (loop $blocks
        (br_if $short (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $m (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $want))))
        (if (local.get $m)
          (then (return (i32.add (local.get $p) (i32.ctz (local.get $m))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    ;; The last bytes: one more block, its bits past `end` dropped.
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (local.set $m
          (i32.and
            (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $want)))
            (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1))))
        (if (local.get $m)
          (then (return (i32.add (local.get $p) (i32.ctz (local.get $m))))))))
    (i32.const -1))

  ;; The first `\n` in [p, n), or -1; $odd says whether a NUL or a byte of 0x80 or more comes
  ;; before it.
  (func $line_end (param $p i32) (param $n i32) (result i32)
    (local $v v128) (local $nl i32) (local $odd i32) (local $keep i32) (local $lf v128) (local $nul v128)
    (global.set $odd (i32.const 0))
    (local.set $lf (i8x16.splat (i32.const 10)))
    (local.set $nul (i8x16.splat (i32.const 0)))
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_u (local.get $p) (local.get $n)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $nl (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $lf))))
        (local.set $odd
          (i32.or
            (i8x16.bitmask (local.get $v))
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $nul)))))
        (if (i32.lt_u (i32.sub (local.get $n) (local.get $p)) (i32.const 16))
          (then
            (local.set $keep
              (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $n) (local.get $p))) (i32.const 1)))
            (local.set $nl (i32.and (local.get $nl) (local.get $keep)))
            (local.set $odd (i32.and (local.get $odd) (local.get $keep)))))
        (if (local.get $nl)
          (then
            ;; Only the bytes before the line's end count.
            (if (i32.and
                  (local.get $odd)
                  (i32.sub
                    (i32.and (local.get $nl) (i32.sub (i32.const 0) (local.get $nl)))
                    (i32.const 1)))
              (then (global.set $odd (i32.const 1))))
            (return (i32.add (local.get $p) (i32.ctz (local.get $nl))))))
        (if (local.get $odd) (then (global.set $odd (i32.const 1))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (i32.const -1))

  ;; Whether an anchor starts at `at` and ends by `end` (AgentFilter's `anchored`).
  (func $anchored (param $at i32) (param $end i32) (result i32)
    (local $a i32) (local $count i32) (local $len i32) (local $i i32) (local $c i32) (local $w i32)
    (local $same i32)
    (local.set $count (i32.load (i32.const 512)))
    (local.set $a (i32.const 516))
    (block $done
      (loop $anchors
        (br_if $done (i32.eqz (local.get $count)))
        (local.set $len (i32.load8_u (local.get $a)))
        (if (i32.le_u (i32.add (local.get $at) (local.get $len)) (local.get $end))
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

  ;; Whether [s, end) holds an anchor (AgentFilter's `mayName`).
  (func $has_anchor (param $s i32) (param $end i32) (result i32)
    (local $p i32) (local $v v128) (local $m i32)
    (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128)
    ;; The first characters (four places: those not used repeat the first).
    (local.set $f0 (i8x16.splat (i32.load8_u (i32.const 260))))
    (local.set $f1 (i8x16.splat (i32.load8_u (i32.const 261))))
    (local.set $f2 (i8x16.splat (i32.load8_u (i32.const 262))))
    (local.set $f3 (i8x16.splat (i32.load8_u (i32.const 263))))
    (local.set $p (local.get $s))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $m
          (i8x16.bitmask
            (v128.or
              (v128.or (i8x16.eq (local.get $v) (local.get $f0)) (i8x16.eq (local.get $v) (local.get $f1)))
              (v128.or (i8x16.eq (local.get $v) (local.get $f2)) (i8x16.eq (local.get $v) (local.get $f3))))))
        (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
          (then
            (local.set $m
              (i32.and
                (local.get $m)
                (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1))))))
        (block $bits_done
          (loop $bits
            (br_if $bits_done (i32.eqz (local.get $m)))
            (if (call $anchored (i32.add (local.get $p) (i32.ctz (local.get $m))) (local.get $end))
              (then (return (i32.const 1))))
            (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
            (br $bits)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $blocks)))
    (i32.const 0))

  ;; The byte at `at`, or a space past `end` (checkClfAt reads a field this way).
  (func $byte_or_space (param $at i32) (param $end i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $at) (local.get $end))
      (then (i32.load8_u (local.get $at)))
      (else (i32.const 32))))

  ;; 1 when the ASCII line [s, end) is one the reader drops: checkClfAt's shape, and for the
  ;; combined format a User-Agent cut out for sure that holds no anchor.
  (func $dropped (param $s i32) (param $end i32) (param $combined i32) (result i32)
    (local $a i32) (local $at i32) (local $from i32) (local $c i32) (local $field i32)
    (local $close i32) (local $inside i32) (local $q i32) (local $sep i32) (local $last i32)
    ;; host: up to the first space, not empty
    (local.set $a (call $find (local.get $s) (local.get $end) (i32.const 32)))
    (if (i32.le_s (local.get $a) (local.get $s)) (then (return (i32.const 0))))
    ;; ident and user: no white space inside, one space after each
    (local.set $at (i32.add (local.get $a) (i32.const 1)))
    (local.set $field (i32.const 0))
    (loop $fields
      (local.set $from (local.get $at))
      (local.set $c (call $byte_or_space (local.get $at) (local.get $end)))
      (block $word_done
        (loop $word
          (br_if $word_done (i32.le_u (local.get $c) (i32.const 32)))
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (local.set $c (call $byte_or_space (local.get $at) (local.get $end)))
          (br $word)))
      (if (i32.eq (local.get $at) (local.get $from)) (then (return (i32.const 0))))
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const 0))))
      (if (i32.ne (local.get $c) (i32.const 32)) (then (return (i32.const 0))))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (local.set $field (i32.add (local.get $field) (i32.const 1)))
      (br_if $fields (i32.lt_u (local.get $field) (i32.const 2))))
    ;; [time] of 20 to 40 characters, then a space and the request's opening quote
    (if (i32.ge_u (i32.add (local.get $at) (i32.const 2)) (local.get $end)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 91)) (then (return (i32.const 0))))
    (local.set $close (call $find (i32.add (local.get $at) (i32.const 1)) (local.get $end) (i32.const 93)))
    (if (i32.lt_s (local.get $close) (i32.const 0)) (then (return (i32.const 0))))
    (local.set $inside (i32.sub (i32.sub (local.get $close) (local.get $at)) (i32.const 1)))
    (if (i32.lt_s (local.get $inside) (i32.const 20)) (then (return (i32.const 0))))
    (if (i32.gt_s (local.get $inside) (i32.const 40)) (then (return (i32.const 0))))
    (if (i32.ge_u (i32.add (local.get $close) (i32.const 2)) (local.get $end)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (i32.add (local.get $close) (i32.const 1))) (i32.const 32))
      (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (i32.add (local.get $close) (i32.const 2))) (i32.const 34))
      (then (return (i32.const 0))))
    (if (i32.eqz (local.get $combined)) (then (return (i32.const 1))))
    ;; the User-Agent: after the first `" "` from the request on, up to the closing quote at the end
    (local.set $q (i32.add (local.get $close) (i32.const 3)))
    (local.set $sep (i32.const -1))
    (block $found
      (loop $quotes
        (local.set $q (call $find (local.get $q) (local.get $end) (i32.const 34)))
        (br_if $found (i32.lt_s (local.get $q) (i32.const 0)))
        (if (i32.eq (i32.load8_u (i32.add (local.get $q) (i32.const 1))) (i32.const 32))
          (then
            (if (i32.eq (i32.load8_u (i32.add (local.get $q) (i32.const 2))) (i32.const 34))
              (then
                (local.set $sep (local.get $q))
                (br $found)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $quotes)))
    (if (i32.lt_s (local.get $sep) (i32.const 0)) (then (return (i32.const 0))))
    (local.set $last (i32.sub (local.get $end) (i32.const 1)))
    (if (i32.ge_s (i32.add (local.get $sep) (i32.const 2)) (local.get $last)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (local.get $last)) (i32.const 34)) (then (return (i32.const 0))))
    (if (i32.eq (i32.load8_u (i32.sub (local.get $sep) (i32.const 1))) (i32.const 92))
      (then (return (i32.const 0))))
    (i32.eqz (call $has_anchor (i32.add (local.get $sep) (i32.const 3)) (local.get $last))))

  ;; Reads the complete lines of [start, n) (absolute offsets). Returns where it stopped: the
  ;; start of the first line without its `\n`, or of the line after the 4096th handed back.
  (func (export "scan") (param $start i32) (param $n i32) (param $combined i32) (param $max_line i32)
    (result i32)
    (local $p i32) (local $nl i32) (local $end i32) (local $lines i32) (local $counted i32)
    (local $back i32) (local $r i32)
    (local.set $p (local.get $start))
    (block $stop
      (loop $each
        (br_if $stop (i32.ge_u (local.get $back) (i32.const 4096)))
        (local.set $nl (call $line_end (local.get $p) (local.get $n)))
        (br_if $stop (i32.lt_s (local.get $nl) (i32.const 0)))
        ;; A carriage return before the `\n` is not the line's (the reader drops it too).
        (local.set $end (local.get $nl))
        (if (i32.gt_u (local.get $end) (local.get $p))
          (then
            (if (i32.eq (i32.load8_u (i32.sub (local.get $end) (i32.const 1))) (i32.const 13))
              (then (local.set $end (i32.sub (local.get $end) (i32.const 1)))))))
        (block $back_to_reader
          (br_if $back_to_reader (global.get $odd))
          (br_if $back_to_reader (i32.gt_u (i32.sub (local.get $end) (local.get $p)) (local.get $max_line)))
          (br_if $back_to_reader
            (i32.eqz (call $dropped (local.get $p) (local.get $end) (local.get $combined))))
          (local.set $counted (i32.add (local.get $counted) (i32.const 1)))
          (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
          (local.set $p (i32.add (local.get $nl) (i32.const 1)))
          (br $each))
        (local.set $r (i32.add (i32.const 4096) (i32.mul (local.get $back) (i32.const 12))))
        (i32.store (local.get $r) (local.get $p))
        (i32.store offset=4 (local.get $r) (local.get $nl))
        (i32.store offset=8 (local.get $r) (local.get $lines))
        (local.set $back (i32.add (local.get $back) (i32.const 1)))
        (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
        (local.set $p (i32.add (local.get $nl) (i32.const 1)))
        (br $each)))
    (i32.store (i32.const 2048) (local.get $lines))
    (i32.store (i32.const 2052) (local.get $counted))
    (i32.store (i32.const 2056) (local.get $back))
    (local.get $p))
)
