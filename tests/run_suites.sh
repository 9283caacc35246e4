#!/bin/sh
# Runs every test suite given as an argument (a command; quote it if it has arguments), shows its
# output, and ends with one line totalling them all: "N passed, N failed". It reads cmocka's
# summary ("[==========] N test(s) run." / "[  PASSED  ] N test(s).") and busted's
# ("N successes / N failures / N errors / N pending"). A suite that dies before its summary (a
# sanitizer abort, a crash) counts every test it did not report as passed as failed, and at least
# one.
passed=0
failed=0
for suite in "$@"; do
    log=$(mktemp)
    CMOCKA_MESSAGE_OUTPUT=stdout sh -c "$suite" >"$log" 2>&1
    status=$?
    cat "$log"
    run=$(sed -n 's/^\[==========\] \([0-9][0-9]*\) test(s) run\..*/\1/p' "$log" | tail -n 1)
    ok=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$log" | tail -n 1)
    # busted (plain or utfTerminal output), colour codes stripped
    line=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[0-9]+ successes? / [0-9]+ failures? / [0-9]+ errors? / [0-9]+ pending' | tail -n 1)
    if [ -n "$line" ]; then
        ok=$(echo "$line" | sed -E 's#^([0-9]+) successes? / ([0-9]+) failures? / ([0-9]+) errors?.*#\1#')
        bad_b=$(echo "$line" | sed -E 's#^([0-9]+) successes? / ([0-9]+) failures? / ([0-9]+) errors?.*#\2 + \3#')
        run=$((ok + $bad_b))
    fi
    rm -f "$log"
    run=${run:-0}
    ok=${ok:-0}
    bad=$((run - ok))
    if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
        bad=1
        echo "!! $suite exited with status $status"
    fi
    passed=$((passed + ok))
    failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
