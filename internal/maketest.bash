#!/usr/bin/env bash
# make test's driver (the Makefile's test target calls it): each step is
# `make STEP`, timed, and after each a line gives its wall time and the CPU
# time (user+sys) of every process it ran; at the end a table of them all,
# so that a CI log shows where the minutes went.
#
#	maketest.bash MAKE FIRST MAIN BESIDE LAST
#
# FIRST, MAIN, BESIDE and LAST are lists of steps. FIRST run one after
# another, then MAIN likewise while BESIDE run at the same time in a second
# lane, then LAST. In MAIN or BESIDE, @STEP is no step but a wait: the lane
# goes on once STEP, of the other lane, has passed. The first step to fail
# ends its lane, and the other lane stops too (BESIDE at once, MAIN before
# its next step). BESIDE's output is kept and printed when both lanes are
# done, so that the log reads as one step after another.
#
# Two lanes because the machine has more than one core and no single step
# keeps them all busy: module downloads, links, tests that wait on a
# process or a socket and the ends of builds, where one big package
# compiles alone, leave a core idle. The Makefile puts steps beside each
# other only where they compile no package in common, waiting (@STEP) for
# the step that compiles what the next one reads, so that neither lane
# waits on nor repeats the other's work.
set -u
make=$1 first=$2 main=$3 beside=$4 last=$5
dir=$(mktemp -d)
bpid=
cleanup() {
	if [ -n "$bpid" ]; then kill -TERM -- "-$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null; fi
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
TIMEFORMAT='%R %U %S'
start=$SECONDS

# step NAME [NOTE] runs make NAME and prints its times.
step() {
	local rc=0 w u y cpu row
	# time in a subshell of its own, whose only child is make: the shell
	# of the main lane also reaps the other lane, whose CPU time would
	# count as that of the step that was running when it ended.
	( time $make --no-print-directory "$1" 2>&3 ) 3>&2 2>"$dir/time.$1" || rc=$?
	read -r w u y < "$dir/time.$1"
	cpu=$(awk -v u="$u" -v y="$y" 'BEGIN {printf "%.1f", u + y}')
	row=$(printf '%-20s %7.1fs wall %7.1fs CPU%s' "$1" "$w" "$cpu" "${2:-}")
	echo "== $row"
	echo "$row" >> "$dir/rows"
	[ $rc -eq 0 ] && : > "$dir/passed.$1"
	return $rc
}

# lane STEPS [NOTE] runs the steps in order until one fails or the other
# lane has failed.
lane() {
	local s
	for s in $1; do
		[ -e "$dir/failed" ] && return 1
		if [ "${s#@}" != "$s" ]; then
			until [ -e "$dir/passed.${s#@}" ]; do
				[ -e "$dir/failed" ] && return 1
				sleep 1
			done
			continue
		fi
		step "$s" "${2:-}" || { echo "$s" >> "$dir/failed"; return 1; }
	done
}

report() {
	local failed
	printf '\nmake test, step by step (%s cores; load average at the end %s):\n' \
		"$(nproc 2>/dev/null || echo ?)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
	cat "$dir/rows"
	awk -v w=$((SECONDS - start)) '{c += $4} END {printf "%-20s %7.1fs wall %7.1fs CPU\n", "total", w, c}' "$dir/rows"
	if [ -e "$dir/failed" ]; then
		failed=$(tr '\n' ' ' < "$dir/failed")
		echo "make test failed at ${failed% }"
		exit 1
	fi
}

for s in $main $beside; do
	case $s in @*)
		case " $first $main $beside " in
		*" ${s#@} "*) ;;
		*) echo "maketest.bash: $s waits for a step that is not run" >&2; exit 2 ;;
		esac
	esac
done

lane "$first" || report
if [ -n "$beside" ]; then
	# A process group of its own, so that stopping it stops its go commands
	# and their tests too.
	set -m
	lane "$beside" " (beside)" > "$dir/beside.log" 2>&1 &
	bpid=$!
	set +m
fi
lane "$main"
if [ -n "$bpid" ]; then
	note="run beside the steps above"
	if [ -e "$dir/failed" ] && kill -TERM -- "-$bpid" 2>/dev/null; then
		note="stopped when $(head -1 "$dir/failed") failed"
	fi
	wait "$bpid" 2>/dev/null
	bpid=
	printf '\n---- %s, %s: its output ----\n' "$beside" "$note"
	cat "$dir/beside.log"
fi
[ -e "$dir/failed" ] || lane "$last"
report
