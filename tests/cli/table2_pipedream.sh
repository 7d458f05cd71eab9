#!/bin/sh
# table2_pipedream.sh - the Nona paper's Table II on the PipeDream profiles
# in ../shared/data/pipedream (skips when they are absent: not bundled).
set -u
C=${CONTEND:-build/contend}
D=${CT_SHARED:-../shared}/data/pipedream
if [ ! -f "$D/resnet18.txt" ]; then
    echo "SKIP: $D not found (PipeDream profiles are not bundled)"
    exit 77
fi
fails=0
for row in alexnet:23:1 vgg16:41:1 resnet18:71:10 densenet121:429:4; do
    m=${row%%:*} rest=${row#*:}
    before=${rest%%:*} after=${rest#*:}
    got=$($C dag contract --json "$D/$m.txt" | tr -d ' \n\t')
    echo "$got" | grep -q "\"tasks_before\":$before,.*\"tasks_after\":$after," ||
        { echo "FAIL: $m: $got (wanted $before -> $after)"; fails=$((fails + 1)); }
done
# The import writes the same DAG the loader reads directly.
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
$C dag import pipedream "$D/resnet18.txt" -o "$T/r.json" || fails=$((fails + 1))
$C dag check "$T/r.json" | grep -q "71 tasks, 79 edges" || { echo "FAIL: import"; fails=$((fails + 1)); }
[ $fails -eq 0 ]
