# tests/suite_check.sh - sourced by the shell suites (tests/install, tests/rock): `check NAME
# COMMAND...` runs one test and prints cmocka's lines for it, `check_summary` the suite's last two
# lines and its status, so tests/run_suites.sh counts these suites like the C ones.
run=0
passed=0
check() { # check NAME COMMAND...: one test
    name=$1
    shift
    run=$((run + 1))
    echo "[ RUN      ] $name"
    if out=$("$@" 2>&1); then
        passed=$((passed + 1))
        echo "[       OK ] $name"
    else
        printf '%s\n' "$out"
        echo "[  FAILED  ] $name"
    fi
}

check_summary() {
    echo "[==========] $run test(s) run."
    echo "[  PASSED  ] $passed test(s)."
    [ "$passed" -eq "$run" ]
}
