#!/usr/bin/env bash
# "webcap canon" on 1,000,000 generated URLs (cmd/genurls) against its peer
# cmd/urlpeer (net/url Parse + String with the same buffered I/O), each with
# stdout to /dev/null and to a file. Runs are interleaved (one warm-up, then
# RUNS rounds of all four) so that all see the same machine; each line gives
# the medians of wall seconds, CPU seconds (user+sys) and peak RSS, URLs per
# second and per CPU second, and the CPU ratio to net/url on the same output.
# (On a shared machine wall time waits for the others: compare CPU.) /dev/null is a
# character device but no terminal: output is buffered there as to a file,
# and the two should be within 10 %. The URLs are generated here, never
# committed.
#
#   bash bench/canon-devnull.sh                 # URLS=1000000 RUNS=7
#   WEBCAP=/tmp/old/webcap bash bench/canon-devnull.sh   # another binary
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=${URLS:-1000000} runs=${RUNS:-7}
go build -o "$tmp/genurls" ./cmd/genurls
go build -o "$tmp/urlpeer" ./cmd/urlpeer
webcap=${WEBCAP:-$tmp/webcap}
[ -n "${WEBCAP:-}" ] || (cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
"$tmp/genurls" -n "$n" >"$tmp/urls.txt"
# one run: "wall cpu rss" appended to $tmp/<name>
run() {
  local name=$1 out=$2
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" <"$tmp/urls.txt" >"$out" || true
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$tmp/t" >>"$tmp/$name"
}
round() {
  run webcap-null /dev/null "$webcap" canon
  run neturl-null /dev/null "$tmp/urlpeer" -mode neturl
  run webcap-file "$tmp/out.txt" "$webcap" canon
  run neturl-file "$tmp/out.txt" "$tmp/urlpeer" -mode neturl
}
round && rm -f "$tmp"/*-null "$tmp"/*-file # warm-up
for _ in $(seq "$runs"); do round; done
median() { cut -d' ' -f"$2" "$tmp/$1" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for sink in null file; do
  for prog in webcap neturl; do
    f=$prog-$sink
    printf '%-12s wall %5s s  cpu %5s s  rss %6s KB  %5.2fM URLs/s  %5.2fM URLs/cpu-s' "$f" "$(median "$f" 1)" \
      "$(median "$f" 2)" "$(median "$f" 3)" "$(echo "$n / $(median "$f" 1) / 1000000" | bc -l)" \
      "$(echo "$n / $(median "$f" 2) / 1000000" | bc -l)"
    [ "$prog" = neturl ] && printf '  webcap/neturl cpu %.2f' "$(echo "$(median webcap-$sink 2) / $(median "$f" 2)" | bc -l)"
    echo
  done
done
printf 'webcap to /dev/null / to a file, wall: %.2f\n' "$(echo "$(median webcap-null 1) / $(median webcap-file 1)" | bc -l)"
