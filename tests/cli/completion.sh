#!/bin/sh
# completion.sh - bash completion (cli/contend.bash) offers the commands,
# subcommands and options the program's --help lists.
. tests/cli-lib.sh
command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash"; finish; exit $?; }
B=${BUILD:-build}/contend
cat >"$T/c.sh" <<'SH'
. cli/contend.bash
t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _contend; echo "${COMPREPLY[*]}"; }
t "$B" ""
t "$B" si
t "$B" nona ""
t "$B" dag im
t "$B" sim --pol
t "$B" bco v
SH
B=$B bash "$T/c.sh" >"$T/out" 2>&1 || fail "completion script: $(cat "$T/out")"
sed -n 1p "$T/out" | grep -q "^dag nona sample bco train merge export serve sim --help --version$" || fail "commands: $(sed -n 1p "$T/out")"
[ "$(sed -n 2p "$T/out")" = "sim" ] || fail "si: $(sed -n 2p "$T/out")"
sed -n 3p "$T/out" | grep -q "^solve sweep " || fail "nona subcommands: $(sed -n 3p "$T/out")"
[ "$(sed -n 4p "$T/out")" = "import" ] || fail "dag im: $(sed -n 4p "$T/out")"
[ "$(sed -n 5p "$T/out")" = "--policies --policy" ] || fail "sim --pol: $(sed -n 5p "$T/out")"
[ "$(sed -n 6p "$T/out")" = "validate" ] || fail "bco v: $(sed -n 6p "$T/out")"
finish
