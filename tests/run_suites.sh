#!/bin/sh
# Runs every test suite given as an argument, shows its output, and ends with one line totalling
# them all: "N passed, N failed". A suite that dies before its summary (a sanitizer abort, a
# crash) counts every test it did not report as passed as failed, and at least one.
passed=0
failed=0
for suite in "$@"; do
    log=$(mktemp)
    CMOCKA_MESSAGE_OUTPUT=stdout "$suite" >"$log" 2>&1
    status=$?
    cat "$log"
    run=$(sed -n 's/^\[==========\] \([0-9][0-9]*\) test(s) run\..*/\1/p' "$log" | tail -n 1)
    ok=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$log" | tail -n 1)
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
