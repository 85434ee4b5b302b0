#!/usr/bin/env bash
# "webcap fix" on a generated capture of N page sets whose trees are broken
# the ways fix repairs (genfix), against qpdf rewriting the whole file: CPU
# time (user+sys) and peak memory from /usr/bin/time, the median of RUNS
# interleaved runs after a warm-up, and the ratio. Every output is checked:
# fix exits 0 (its result audits clean), qpdf --check passes on it.
# Files are generated here, never committed.
#   bash bench/fix.sh                 # 10,000 sets
#   SETS="10000 40000" RUNS=5 bash bench/fix.sh
#   OBJSTM=1 bash bench/fix.sh        # xref streams + object streams
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/genfix" ./cmd/genfix
(cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
# measure CMD...: one run's "cpu-seconds KB"
measure() { /usr/bin/time -f "%U %S %M" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%-7s %-8s %-20s %-20s %s\n' sets "file MB" "qpdf CPU s / MB" "fix CPU s / MB" "ratio CPU / memory"
for n in ${SETS:-10000}; do
  flags=()
  [ -n "${OBJSTM:-}" ] && flags=(-objstm)
  "$tmp/genfix" -sets "$n" "${flags[@]}" -o "$tmp/broken.pdf"
  rm -f "$tmp/fixed.pdf" && "$tmp/webcap" fix "$tmp/broken.pdf" -o "$tmp/fixed.pdf" >/dev/null # warm-up, and the oracle
  qpdf --check "$tmp/fixed.pdf" >/dev/null
  "$tmp/webcap" audit "$tmp/fixed.pdf" >/dev/null
  : >"$tmp/q" && : >"$tmp/f"
  for _ in $(seq "${RUNS:-5}"); do
    rm -f "$tmp/rewritten.pdf" "$tmp/fixed.pdf"
    measure qpdf "$tmp/broken.pdf" "$tmp/rewritten.pdf" >>"$tmp/q"
    measure "$tmp/webcap" fix "$tmp/broken.pdf" -o "$tmp/fixed.pdf" >>"$tmp/f"
  done
  qt=$(cut -d' ' -f1 "$tmp/q" | median); qm=$(cut -d' ' -f2 "$tmp/q" | median)
  ft=$(cut -d' ' -f1 "$tmp/f" | median); fm=$(cut -d' ' -f2 "$tmp/f" | median)
  mb=$(du -m "$tmp/broken.pdf" | cut -f1)
  printf '%-7s %-8s %-20s %-20s %s\n' "$n" "$mb" "$qt / $((qm / 1024))" "$ft / $((fm / 1024))" \
    "$(awk -v a="$ft" -v b="$qt" -v c="$fm" -v d="$qm" 'BEGIN { printf "%.2f / %.2f", a / b, c / d }')"
done
