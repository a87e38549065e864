#!/usr/bin/env bash
# Compares the per-message cost of Net.Zmq builds in alternating processes: builds this benchmark once per library
# (this repository's, and each commit given, from a throwaway export under the artifacts path), then runs the builds in
# turn, PROCESSES times each, and prints each row's median over the processes and its ratio to the first build.
#   benchmarks/NewMessageCost/compare.sh [PROCESSES] COMMIT...
# e.g. benchmarks/NewMessageCost/compare.sh 10 79fc418 65cf875
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
processes=${1:-10}
shift || true
work="$root/artifacts/new-message-cost"
libzmq="$root/artifacts/native/linux-x64/libzmq.so"
mkdir -p "$work"

builds=(HEAD)
dotnet build "$root/benchmarks/NewMessageCost" -c Release --artifacts-path "$work/HEAD" -v q -nologo >/dev/null
for commit in "$@"; do
  export_dir="$work/src-$commit"
  rm -rf "$export_dir" && mkdir -p "$export_dir/artifacts/native"
  git -C "$root" archive "$commit" src/Net.Zmq Directory.Build.props Directory.Packages.props | tar -x -C "$export_dir"
  cp -a "$root/artifacts/native/linux-x64" "$export_dir/artifacts/native/"
  dotnet build "$root/benchmarks/NewMessageCost" -c Release --artifacts-path "$work/$commit" -v q -nologo \
    -p:NetZmqProject="$export_dir/src/Net.Zmq/Net.Zmq.csproj" >/dev/null
  builds+=("$commit")
done

results="$work/results.tsv"
: > "$results"
for ((p = 1; p <= processes; p++)); do
  for build in "${builds[@]}"; do
    NETZMQ_LIBZMQ_PATH="$libzmq" dotnet "$work/$build/bin/NewMessageCost/release/NewMessageCost.dll" \
      | sed "s/^/$build\t/" >> "$results"
  done
done

# Per build and row: the median of the processes' medians, then the ratio to the first build's.
sort -t$'\t' -k1,1 -k2,2 -k3,3g "$results" | awk -F'\t' -v first="${builds[0]}" '
  { key = $1 "\t" $2; values[key, ++count[key]] = $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  END {
    for (i = 1; i <= n; i++) { k = order[i]; median[k] = values[k, int((count[k] + 1) / 2)] }
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, part, "\t")
      printf "%-10s %-40s %7.1f ns/op   x%.2f of %s\n", part[1], part[2], median[k], median[k] / median[first "\t" part[2]], first
    }
  }'
