#!/usr/bin/env bash
# Distinct-turn enumeration speed, pyrimaa vs tusk, on the same fixture positions, one core
# each, back to back in one run. Usage: tests/data/compare_speed.sh [N]   (default 200)
# Needs `pip install aei==1.4.1` for pyrimaa.
set -euo pipefail
n=${1:-200}
cd "$(dirname "$0")/../.."
cargo build --release -q -p tusk
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
awk -v n="$n" '!/^#/ && NF { print; if (++c == n) exit }' tests/data/turn_counts.txt > "$tmp"
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

py_line=$($pin python3 tests/data/bench_pyrimaa.py "$n")
echo "$py_line"
py_secs=$(echo "$py_line" | sed -E 's/.* ([0-9.]+) seconds.*/\1/')

t0=$(date +%s.%N)
$pin target/release/tusk moves --count < "$tmp" > "$tmp.out"
t1=$(date +%s.%N)
# Check tusk's counts against the fixture while we are at it.
paste -d' ' <(sed -E 's/.*\] ([0-9]+) [0-9]+$/\1/' "$tmp") "$tmp.out" | awk '$1 != $2 {bad++} END {if (bad) {print bad " counts differ"; exit 1}}'
rm -f "$tmp.out"
python3 - "$n" "$py_secs" "$t0" "$t1" <<'PY'
import sys
n, py, t0, t1 = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
tusk = t1 - t0
print(f"tusk:    {n} positions, {tusk:.3f} seconds (whole process, parsing included)")
print(f"ratio:   tusk is {py / tusk:.0f} times faster than pyrimaa")
PY
