#!/usr/bin/env bash
# Issue 29's speed target: webcap capture against one Chromium printing the
# same pages over the DevTools protocol in one tab (bench/cmd/cdppeer), on
# a generated local site of 24 and of 50 pages (text, headings, a list, an
# image of its own, a shared style sheet, links; bench/cmd/capcpu/site.go),
# interleaved (a warm-up run of each, then webcap peer webcap peer … RUNS
# times), medians of the whole-machine CPU time (user + system of the
# command and every process descending from it, Chromium's included: see
# bench/cmd/capcpu) and of the wall time, and the ratios webcap / peer.
# The peer always renders in one tab; webcap with --jobs 1 and 2. The
# target: CPU ratio ≤ 1.3 (24 pages, --jobs 1), and the wall time of the
# 50 pages with --jobs 2 at most the peer's.
#
#   bash bench/capture-cpu.sh                   # everything (about 25 minutes here)
#   RUNS=1 PAGES=24 JOBS=1 bash bench/capture-cpu.sh   # does it work?
#   VERBOSE=1 bash bench/capture-cpu.sh         # each run, and the CPU of each kind of process
#   WEBCAP=/work/webcap-old bash bench/capture-cpu.sh  # another webcap binary
#   BEFORE=/work/webcap-old bash bench/capture-cpu.sh  # also that one, interleaved: its ratio to the same peer runs
#
# Environment: RUNS (5), PAGES ("24,50"), JOBS ("1,2"), WEBCAP (default:
# built from this tree), BEFORE (another webcap, run too), VERBOSE,
# WEBCAP_ARGS (more capture flags),
# PEER_EXTRA (more Chromium flags for the peer, comma-separated).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd .. && go build -o "$tmp/webcap" ./cmd/webcap)
go build -o "$tmp/cdppeer" ./cmd/cdppeer
go build -o "$tmp/capcpu" ./cmd/capcpu
echo "machine: $(nproc) CPUs, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg), $(chromium --version 2>/dev/null || echo 'no chromium')"
"$tmp/capcpu" -webcap "${WEBCAP:-$tmp/webcap}" -peer "$tmp/cdppeer" -pages "${PAGES:-24,50}" -jobs "${JOBS:-1,2}" \
  -runs "${RUNS:-5}" -before "${BEFORE:-}" -webcap-args "${WEBCAP_ARGS:-}" -peer-extra "${PEER_EXTRA:-}" ${VERBOSE:+-v}
