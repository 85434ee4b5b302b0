#!/usr/bin/env bash
# "webcap build" against pdfcpu's api.ReadContext of its input (issue 17):
# genbuild writes an N-page PDF, a manifest of N page sets and their
# sources; each run times readcontext on the input, then webcap build of the
# manifest, interleaved, after a warm-up of each. CPU is user+sys and memory
# the peak RSS (/usr/bin/time); the medians and their ratios are printed.
# Files are generated here, never committed.
#   bash bench/build.sh                        # 10,000 sets, 5 runs
#   SETS="10000 100000" RUNS=3 bash bench/build.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/genbuild" ./cmd/genbuild
go build -o "$tmp/readcontext" ./cmd/readcontext
(cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
# measure CMD...: one run's "cpu-seconds KB"
measure() { /usr/bin/time -f "%U %S %M" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
runs=${RUNS:-5}
printf '%-8s %-8s %-24s %-24s %s\n' sets "input MB" "ReadContext CPU s / MB" "build CPU s / MB" "ratio CPU / memory"
for n in ${SETS:-10000}; do
  rm -rf "$tmp/case"
  "$tmp/genbuild" -sets "$n" -dir "$tmp/case"
  build=("$tmp/webcap" build --force "$tmp/case/manifest.json" -o "$tmp/out.pdf")
  "$tmp/readcontext" "$tmp/case/input.pdf" >/dev/null && "${build[@]}" >/dev/null # warm-up
  : >"$tmp/rc" && : >"$tmp/wc"
  for _ in $(seq "$runs"); do
    measure "$tmp/readcontext" "$tmp/case/input.pdf" >>"$tmp/rc"
    measure "${build[@]}" >>"$tmp/wc"
  done
  rt=$(cut -d' ' -f1 "$tmp/rc" | median); rm=$(cut -d' ' -f2 "$tmp/rc" | median)
  bt=$(cut -d' ' -f1 "$tmp/wc" | median); bm=$(cut -d' ' -f2 "$tmp/wc" | median)
  mb=$(du -m "$tmp/case/input.pdf" | cut -f1)
  printf '%-8s %-8s %-24s %-24s %s\n' "$n" "$mb" "$rt / $((${rm%.*} / 1024))" "$bt / $((${bm%.*} / 1024))" \
    "$(awk -v a="$bt" -v b="$rt" -v c="$bm" -v d="$rm" 'BEGIN { printf "%.2f / %.2f", a / b, c / d }')"
done
