#!/bin/sh
# Measures the CPU time and peak RSS of a whole print-mode run: one task,
# one bash call, against a local fake model server (cmd/fakellm).
#
#   sh linemode/testdata/cost.sh [runs]     (from the repository root; default 5 runs)
#
# Prints one line per run and the worst figures. Budget: 0.05 s CPU, 40 MiB.
set -eu
runs=${1:-5}
root=$(pwd)
work=$(mktemp -d)
trap 'kill "$fake_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/tack" ./cmd/tack
go build -o "$work/fakellm" ./cmd/fakellm
max_cpu=0
max_rss=0
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	# a fresh server per run: the script serves one task
	"$work/fakellm" -script "$root/linemode/testdata/cost.json" >"$work/url" 2>/dev/null &
	fake_pid=$!
	while [ ! -s "$work/url" ]; do sleep 0.01; done
	home="$work/home$i"
	mkdir -p "$home"
	(cd "$work" && TACK_HOME="$home" DEEPSEEK_BASE_URL=$(cat "$work/url") DEEPSEEK_API_KEY=fake \
		/usr/bin/time -v "$work/tack" -p "list the files" --permission-mode full-access \
		>"$work/out" 2>"$work/time") </dev/null
	kill "$fake_pid"
	wait "$fake_pid" 2>/dev/null || true
	: >"$work/url"
	user=$(sed -n 's/.*User time (seconds): //p' "$work/time")
	sys=$(sed -n 's/.*System time (seconds): //p' "$work/time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
	cpu=$(echo "$user + $sys" | bc)
	printf 'run %d: cpu %.2fs (user %s sys %s)  peak rss %.1f MiB  answer: %s\n' \
		"$i" "$cpu" "$user" "$sys" "$(echo "$rss / 1024" | bc -l)" "$(cat "$work/out")"
	if [ "$(echo "$cpu > $max_cpu" | bc)" = 1 ]; then max_cpu=$cpu; fi
	if [ "$rss" -gt "$max_rss" ]; then max_rss=$rss; fi
done
printf 'worst of %d runs: cpu %.2fs, peak rss %.1f MiB (budget 0.05s, 40 MiB)\n' \
	"$runs" "$max_cpu" "$(echo "$max_rss / 1024" | bc -l)"
