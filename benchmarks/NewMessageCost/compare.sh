#!/usr/bin/env bash
# Compares the per-message cost of Net.Zmq builds in alternating processes: builds this benchmark once per library
# (this repository's, and each commit given, from a throwaway export under the artifacts path), then runs one process
# of each build in turn, PROCESSES times, and prints per build and row the median ns/op over its processes and the
# median, with the middle half, of its ratio to this repository's process of the same turn (which ran seconds apart,
# so the ratio is what survives the machine's drift).
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
  if [[ ! -d "$export_dir/src" ]]; then
    mkdir -p "$export_dir/artifacts/native"
    git -C "$root" archive "$commit" src/Net.Zmq Directory.Build.props Directory.Packages.props | tar -x -C "$export_dir"
    cp -a "$root/artifacts/native/linux-x64" "$export_dir/artifacts/native/"
  fi
  dotnet build "$root/benchmarks/NewMessageCost" -c Release --artifacts-path "$work/$commit" -v q -nologo \
    -p:NetZmqProject="$export_dir/src/Net.Zmq/Net.Zmq.csproj" >/dev/null
  builds+=("$commit")
done

results="$work/results.tsv"
: > "$results"
for ((p = 1; p <= processes; p++)); do
  for build in "${builds[@]}"; do
    NETZMQ_LIBZMQ_PATH="$libzmq" dotnet "$work/$build/bin/NewMessageCost/release/NewMessageCost.dll" 5 100000 \
      | sed "s/^/$p\t$build\t/" >> "$results"
  done
done

awk -F'\t' -v first=HEAD '
  function median(list, n,   sorted, i, j, t) {
    for (i = 1; i <= n; i++) sorted[i] = list[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) { t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t }
    return sorted[int((n + 1) / 2)] "\t" sorted[int((n + 3) / 4)] "\t" sorted[int((3 * n + 3) / 4)]
  }
  { ns[$1, $2, $3] = $4; if (!(($2, $3) in seen)) { seen[$2, $3] = 1; key[++keys] = $2 "\t" $3 } if ($1 > turns) turns = $1 }
  END {
    for (k = 1; k <= keys; k++) {
      split(key[k], part, "\t"); n = 0; m = 0
      for (p = 1; p <= turns; p++) { values[++n] = ns[p, part[1], part[2]]; ratios[++m] = ns[p, part[1], part[2]] / ns[p, first, part[2]] }
      split(median(values, n), v, "\t"); split(median(ratios, m), r, "\t")
      printf "%-8s %-38s median %7.1f ns/op   ratio to %s: median %.2f (middle half %.2f-%.2f)\n", part[1], part[2], v[1], first, r[1], r[2], r[3]
    }
  }' "$results"
