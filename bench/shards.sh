#!/bin/sh
# bench/shards.sh: whole-process wall time of webcap audit over N copies of
# testdata/capture.pdf split into 1, 2 and 4 shards run at once on this
# machine (each shard --jobs $(nproc)/shards), as docs/scale.md reports.
# Usage: bench/shards.sh [N]   (default 2000)
set -eu
n=${1:-2000}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/webcap" ./cmd/webcap)
mkdir "$tmp/a"
i=0
while [ "$i" -lt "$n" ]; do cp "$root/testdata/capture.pdf" "$tmp/a/c$i.pdf"; i=$((i + 1)); done
cpus=$(nproc)
for shards in 1 2 4; do
	jobs=$(( cpus / shards )); [ "$jobs" -ge 1 ] || jobs=1
	rm -f "$tmp"/shard-*.jsonl
	start=$(date +%s.%N)
	s=0
	while [ "$s" -lt "$shards" ]; do
		"$tmp/webcap" audit -r --progress none --jobs "$jobs" --shard "$s/$shards" --resume "$tmp/shard-$s.jsonl" "$tmp/a" &
		s=$((s + 1))
	done
	wait
	end=$(date +%s.%N)
	lines=$(cat "$tmp"/shard-*.jsonl | wc -l)
	echo "$shards shard(s): $lines files in $(echo "$end - $start" | bc) s: $(echo "$lines / ($end - $start)" | bc) files/s"
done
