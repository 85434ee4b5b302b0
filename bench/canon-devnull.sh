#!/usr/bin/env bash
# "webcap canon" on 1,000,000 generated URLs (cmd/genurls), stdout to
# /dev/null against stdout to a file: wall seconds (/usr/bin/time), median
# of 7 runs each, interleaved so that both see the same machine. /dev/null
# is a character device but no terminal: output is buffered there as to a
# file, and the two should be within 10 %. The URLs are generated here,
# never committed.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/genurls" ./cmd/genurls
(cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
"$tmp/genurls" -n "${URLS:-1000000}" >"$tmp/urls.txt"
wall() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
: >"$tmp/null" && : >"$tmp/file"
for _ in 1 2 3 4 5 6 7; do
  wall sh -c "exec '$tmp/webcap' canon <'$tmp/urls.txt' >/dev/null" >>"$tmp/null"
  wall sh -c "exec '$tmp/webcap' canon <'$tmp/urls.txt' >'$tmp/out.txt'" >>"$tmp/file"
done
median() { sort -n "$1" | sed -n 4p; }
n=$(median "$tmp/null") f=$(median "$tmp/file")
printf 'to /dev/null %s s, to a file %s s, ratio %s\n' "$n" "$f" "$(echo "scale=3; $n / $f" | bc)"
