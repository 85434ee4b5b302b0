#!/usr/bin/env bash
# One harness for issue 17's performance targets: webcap against its peers,
# whole processes, each pair interleaved (a warm-up run of each, then
# A B A B … RUNS times; bench/cmd/pairtime), medians of CPU time (user +
# system), wall time and peak memory, and the ratios webcap / peer. It
# prints the machine it ran on and one Markdown table; docs/performance.md's
# table is this output.
#
#   bash bench/peers.sh                     # everything (about 15 minutes here)
#   QUICK=1 bash bench/peers.sh             # small corpora, one run: does it work?
#   ONLY="canon read" bash bench/peers.sh   # some groups: canon read build fix
#   ADA_DIR=~/ada/singleheader bash bench/peers.sh   # with ada (C++)
#
# Peers: net/url Parse + String and purell (bench/cmd/urlpeer), Node.js's
# URL (ada inside), ada itself when ADA_DIR holds its single-file release
# (ada.h and ada.cpp, made by singleheader/amalgamate.py in
# github.com/ada-url/ada) and a C++20 compiler is here; pdfcpu's
# api.ReadContext alone and with validation (bench/cmd/readcontext), qpdf
# --check, and qpdf rewriting a whole file. A peer that is not installed is
# skipped with a message on stderr; so is a group whose generator is missing.
# Corpora are generated into a temporary directory, never committed.
#
# Environment: RUNS (5), URLS (1000000), PAGES (20000), BUILD_SETS ("10000
# 100000"), FIX_SETS (10000), QUICK, ONLY, ADA_DIR, KEEP (keep the temporary
# directory and print its name).
set -euo pipefail
cd "$(dirname "$0")"
if [ -n "${QUICK:-}" ]; then
  : "${RUNS:=1}" "${URLS:=20000}" "${PAGES:=500}" "${BUILD_SETS:=500}" "${FIX_SETS:=500}"
fi
RUNS=${RUNS:-5} URLS=${URLS:-1000000} PAGES=${PAGES:-20000}
BUILD_SETS=${BUILD_SETS:-10000 100000} FIX_SETS=${FIX_SETS:-10000}
ONLY=${ONLY:-canon read build fix}
tmp=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then echo "peers: corpora in $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi
commas() { echo "$1" | sed -e :a -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta'; }
skip() { echo "peers: skipped: $*" >&2; }
want() { [[ " $ONLY " == *" $1 "* ]]; }
have() { command -v "$1" >/dev/null 2>&1; }

bin=$tmp/bin
mkdir -p "$bin"
(cd .. && go build -o "$bin/webcap" ./cmd/webcap)
for c in pairtime genurls genbig genbuild genfix urlpeer readcontext; do
  if [ -d "cmd/$c" ]; then go build -o "$bin/$c" "./cmd/$c"; fi
done
row() { "$bin/pairtime" -runs "$RUNS" "$@"; }
# check FILE: what webcap wrote audits with no error and qpdf finds it
# sound (a figure for a wrong output is no figure).
check() {
  "$bin/webcap" audit --quiet "$1" >/dev/null || { echo "peers: $1: webcap audit finds errors" >&2; exit 1; }
  if have qpdf; then qpdf --check "$1" >/dev/null || { echo "peers: $1: qpdf --check finds errors" >&2; exit 1; }; fi
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
echo "Machine: $(nproc) cores ($cpu), $mem, $(go version | cut -d' ' -f3), $(uname -sr);" \
  "webcap $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)."
echo "Medians of $RUNS interleaved runs after a warm-up; ratios are webcap / peer."
echo
"$bin/pairtime" -header

if want canon; then
  u=$tmp/urls.txt
  "$bin/genurls" -n "$URLS" >"$u"
  n=$(commas "$URLS")
  w="$bin/webcap canon <$u"
  row -name "canon, $n URLs → file" -peer "net/url Parse+String" -target 0.5 \
    -a "$w >$tmp/wc.txt" -b "$bin/urlpeer -mode neturl <$u >$tmp/peer.txt"
  row -name "canon, $n URLs → /dev/null" -peer "net/url Parse+String" -target 0.5 \
    -a "$w >/dev/null" -b "$bin/urlpeer -mode neturl <$u >/dev/null"
  row -name "canon, $n URLs → file" -peer "purell" \
    -a "$w >$tmp/wc.txt" -b "$bin/urlpeer -mode purell <$u >$tmp/peer.txt"
  if have node; then
    row -name "canon, $n URLs → file" -peer "Node.js URL (ada)" \
      -a "$w >$tmp/wc.txt" -b "node ada/urlpeer.mjs <$u >$tmp/peer.txt"
  else
    skip "Node.js URL: no node"
  fi
  if [ -n "${ADA_DIR:-}" ] && [ -f "$ADA_DIR/ada.h" ] && [ -f "$ADA_DIR/ada.cpp" ] && have c++; then
    c++ -std=c++20 -O3 -DNDEBUG -I"$ADA_DIR" -o "$bin/adapeer" ada/adapeer.cpp
    row -name "canon, $n URLs → file" -peer "ada (C++)" -target 1 \
      -a "$w >$tmp/wc.txt" -b "$bin/adapeer <$u >$tmp/peer.txt"
  else
    skip "ada (C++): set ADA_DIR to a directory with ada.h and ada.cpp (ada's singleheader/amalgamate.py) and install a C++20 compiler"
  fi
fi

if want read; then
  for flavour in classic objstm; do
    f=$tmp/big-$flavour.pdf
    if [ "$flavour" = objstm ]; then "$bin/genbig" -pages "$PAGES" -objstm -o "$f"; else "$bin/genbig" -pages "$PAGES" -o "$f"; fi
    p="$(commas "$PAGES") pages, $([ $flavour = objstm ] && echo "xref + object streams" || echo "xref table")"
    rc="$bin/readcontext $f >/dev/null"
    t=0.7 # issue 30: faster than pdfcpu, which parses what a Web Capture walk skips
    [ "$flavour" = objstm ] && t=0.8
    row -name "info --json, $p" -peer "pdfcpu ReadContext" -target $t -target-mem $t \
      -a "$bin/webcap info --json $f >/dev/null" -b "$rc"
    row -name "audit --jsonl, $p" -peer "pdfcpu ReadContext" -target $t -target-mem $t \
      -a "$bin/webcap audit --jsonl $f >/dev/null" -b "$rc"
    row -name "audit --jsonl, $p" -peer "pdfcpu validate" \
      -a "$bin/webcap audit --jsonl $f >/dev/null" -b "$bin/readcontext -validate $f >/dev/null"
    if have qpdf; then
      row -name "audit --jsonl, $p" -peer "qpdf --check" \
        -a "$bin/webcap audit --jsonl $f >/dev/null" -b "qpdf --check $f >/dev/null"
    else
      skip "qpdf --check: no qpdf"
    fi
  done
fi

if want build; then
  if [ -x "$bin/genbuild" ]; then
    for n in $BUILD_SETS; do
      d=$tmp/build-$n
      "$bin/genbuild" -sets "$n" -dir "$d"
      mt=""
      [ "$n" -ge 100000 ] && mt="-target-mem 1.3"
      # shellcheck disable=SC2086
      row -name "build, $(commas "$n") page sets" -peer "pdfcpu ReadContext (input)" -target 1.5 $mt \
        -a "$bin/webcap build --force $d/manifest.json -o $d/out.pdf >/dev/null" -b "$bin/readcontext $d/input.pdf >/dev/null"
      check "$d/out.pdf"
      rm -rf "$d"
    done
  else
    skip "build: no bench/cmd/genbuild"
  fi
fi

if want fix; then
  if [ -x "$bin/genfix" ] && have qpdf; then
    for n in $FIX_SETS; do
      f=$tmp/broken-$n.pdf
      "$bin/genfix" -sets "$n" -o "$f"
      row -name "fix, $(commas "$n") page sets, broken trees" -peer "qpdf (rewrites the file)" -target 0.5 \
        -a "$bin/webcap fix --force $f -o $tmp/fixed.pdf >/dev/null" -b "qpdf $f $tmp/rewritten.pdf"
      check "$tmp/fixed.pdf"
    done
  else
    skip "fix: needs bench/cmd/genfix and qpdf"
  fi
fi
