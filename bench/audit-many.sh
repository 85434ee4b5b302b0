#!/usr/bin/env bash
# Audit throughput on many small files with isolation on: N copies
# (default 10,000) of the bundled capture and the 5 hostile samples of
# internal/pdfbuild among them (bench/cmd/genmany), whole-process time of
# "webcap audit --jsonl --files-from LIST > /dev/null", worker processes
# against --in-process, interleaved, RUNS runs each (default 5). The files
# are generated here, never committed.
#   bash bench/audit-many.sh
#   N=2000 RUNS=3 JOBS=1 bash bench/audit-many.sh
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/genmany" ./cmd/genmany
(cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
"$tmp/genmany" -n "${N:-10000}" -dir "$tmp/files" >"$tmp/list.txt"
files=$(wc -l <"$tmp/list.txt")
jobs=()
[ -n "${JOBS:-}" ] && jobs=(--jobs "$JOBS")
# run MODE...: one run's "seconds KB" (peak memory of the largest process)
run() { /usr/bin/time -f "%e %M" "$tmp/webcap" audit --jsonl "${jobs[@]}" "$@" --files-from "$tmp/list.txt" 2>&1 >/dev/null | tail -1; }
printf '%-12s %-10s %-10s %s\n' mode seconds files/s "peak KB"
for _ in $(seq "${RUNS:-5}"); do
  for mode in workers in-process; do
    flags=()
    [ "$mode" = in-process ] && flags=(--in-process)
    read -r s kb < <(run "${flags[@]}" || true)
    printf '%-12s %-10s %-10s %s\n' "$mode" "$s" "$(awk -v n="$files" -v s="$s" 'BEGIN { printf "%.0f", n / s }')" "$kb"
  done
done
