#!/usr/bin/env bash
# Compares two builds of the library on the rows that decide how a socket call claims its socket (the benchmark
# program's claim-rows verb: a single-thread inproc send + receive per call, a 64 B ROUTER span loop, a blocking round
# trip). The library's src/ of each revision is built with the working tree's benchmark program, each in a directory
# of its own; then the two run alternately, PAIRS times, with dynamic PGO on (the .NET default) and off
# (DOTNET_TieredPGO=0). Prints each row's median over the processes and its spread (lowest - highest).
#
#   benchmarks/compare-builds.sh REV_A REV_B [PAIRS]
#
# Needs artifacts/native/<rid>/ (native/build-libzmq.sh), which both builds share; leaves nothing behind.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
rev_a=$1
rev_b=$2
pairs=${3:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {
  local rev=$1 dir=$work/$2
  mkdir -p "$dir/artifacts"
  git -C "$root" archive "$rev" src Directory.Build.props Directory.Packages.props | tar -x -C "$dir"
  mkdir -p "$dir/benchmarks"
  cp -a "$root/benchmarks/Net.Zmq.Benchmarks" "$dir/benchmarks/"
  rm -rf "$dir/benchmarks/Net.Zmq.Benchmarks/bin" "$dir/benchmarks/Net.Zmq.Benchmarks/obj"
  ln -s "$root/artifacts/native" "$dir/artifacts/native"
  dotnet build "$dir/benchmarks/Net.Zmq.Benchmarks" -c Release -v quiet -nologo >"$work/$2.build.log" 2>&1 \
    || { cat "$work/$2.build.log"; exit 1; }
  echo "$dir/benchmarks/Net.Zmq.Benchmarks/bin/Release/net10.0/Net.Zmq.Benchmarks.dll"
}

echo "==> building A = $(git -C "$root" rev-parse --short "$rev_a") and B = $(git -C "$root" rev-parse --short "$rev_b")"
dll_a=$(build "$rev_a" a)
dll_b=$(build "$rev_b" b)

results=$work/rows.txt
for pair in $(seq 1 "$pairs"); do
  # The order turns every pair, so that neither build always runs first.
  if (( pair % 2 )); then order="a b"; else order="b a"; fi
  for pgo in 1 0; do
    for build in $order; do
      dll=dll_$build
      DOTNET_TieredPGO=$pgo dotnet "${!dll}" claim-rows | awk -v b="$build" -v p="$pgo" '$1 == "row" { print b, p, $2, $3 }' >>"$results"
    done
  done
  echo "    pair $pair of $pairs done"
done

echo "==> A = $rev_a, B = $rev_b, $pairs processes each; median (lowest - highest)"
python3 - "$results" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build, pgo, name, value = line.split()
    rows[(name, pgo, build)].append(float(value))
for (name, pgo, build), values in sorted(rows.items(), key=lambda kv: (kv[0][0], -int(kv[0][1]), kv[0][2])):
    print(f"{name:28} PGO {'on ' if pgo == '1' else 'off'} {build.upper()}  {statistics.median(values):12.2f}  ({min(values):.2f} - {max(values):.2f})")
PY
