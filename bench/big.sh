#!/usr/bin/env bash
# Reader cost on generated captures of 5,000 to 40,000 pages: "webcap info
# --json" against pdfcpu's api.ReadContext alone, wall time, CPU time
# (user + system) and peak memory (/usr/bin/time), best of 5 runs each,
# interleaved so that both see the same machine (on a shared machine, CPU
# time is the steadier figure). Files are generated here, never committed.
#   bash bench/big.sh            # classic xref tables
#   OBJSTM=1 bash bench/big.sh   # xref streams + object streams
#   CMD="audit --jsonl" PAGES=20000 bash bench/big.sh   # audit (in a worker) instead of info
#   WEBCAP=/tmp/webcap-before bash bench/big.sh          # a given webcap binary instead of this tree's
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/genbig" ./cmd/genbig
go build -o "$tmp/readcontext" ./cmd/readcontext
if [ -n "${WEBCAP:-}" ]; then # another build to measure, e.g. the one before a change
  cp "$WEBCAP" "$tmp/webcap"
else
  (cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
fi
# measure CMD...: one run's "seconds KB cpu-seconds"
measure() { /usr/bin/time -f "%e %M %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'; }
read -r -a cmd <<<"${CMD:-info --json}"
printf '%-7s %-8s %-24s %-24s %s\n' pages "file MB" "ReadContext s/cpu/MB" "${cmd[*]} s/cpu/MB" "ratio time / cpu / memory"
for n in ${PAGES:-5000 10000 20000 40000}; do
  flags=()
  [ -n "${OBJSTM:-}" ] && flags=(-objstm)
  "$tmp/genbig" -pages "$n" "${flags[@]}" -o "$tmp/big.pdf"
  : >"$tmp/rc" && : >"$tmp/wc"
  for _ in 1 2 3 4 5; do
    measure "$tmp/readcontext" "$tmp/big.pdf" >>"$tmp/rc"
    measure "$tmp/webcap" "${cmd[@]}" "$tmp/big.pdf" >>"$tmp/wc"
  done
  rt=$(sort -n "$tmp/rc" | head -1 | cut -d' ' -f1); rm=$(cut -d' ' -f2 "$tmp/rc" | sort -n | head -1)
  rc=$(cut -d' ' -f3 "$tmp/rc" | sort -n | head -1)
  it=$(sort -n "$tmp/wc" | head -1 | cut -d' ' -f1); im=$(cut -d' ' -f2 "$tmp/wc" | sort -n | head -1)
  ic=$(cut -d' ' -f3 "$tmp/wc" | sort -n | head -1)
  mb=$(du -m "$tmp/big.pdf" | cut -f1)
  printf '%-7s %-8s %-24s %-24s %s\n' "$n" "$mb" "$rt / $rc / $((rm / 1024))" "$it / $ic / $((im / 1024))" \
    "$(awk -v a="$it" -v b="$rt" -v e="$ic" -v f="$rc" -v c="$im" -v d="$rm" 'BEGIN { printf "%.2f / %.2f / %.2f", a / b, e / f, c / d }')"
done
