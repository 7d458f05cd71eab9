#!/bin/sh
# import_models.sh CONTEND OUTDIR - exports torchvision models to ONNX
# (export_torchvision.py), imports each with `contend dag import onnx`
# (and a 16-server scenario at load 0.5, solved into OUTDIR/MODEL-table.json),
# contracts and splits it, and prints its structure beside the PipeDream
# profile of the same architecture when ../shared/data/pipedream has one.
# Skips (exit 0, says why) when python3-torch / -torchvision / -onnx are
# missing. Used by `make data`; docs/formats.md quotes its table.
set -u
C=$1 OUT=$2
PY=${PYTHON_ONNX:-/usr/bin/python3}
here=$(dirname "$0")
if ! "$PY" -c 'import torch, torchvision, onnx' 2>/dev/null; then
    echo "import_models: skipped: $PY lacks torch, torchvision or onnx (apt-get install python3-torchvision python3-onnx)"
    exit 0
fi
"$PY" "$here/export_torchvision.py" "$OUT" || exit 1
PD=${CT_SHARED:-../shared}/data/pipedream
summary() { # DAG -> "tasks contracted bottlenecks segments"
    n=$("$C" dag check "$1" | sed -n 's/.*[ ,]\([0-9][0-9]*\) tasks,.*/\1/p')
    s=$("$C" dag split "$1" | head -1)
    echo "$n $(echo "$s" | sed -n 's/.*: \([0-9]*\) tasks, \([0-9]*\) bottlenecks, \([0-9]*\) segments.*/\1 \2 \3/p')"
}
printf '%-14s %28s %12s   %s\n' "" "ONNX import: tasks contracted" "solved: JCT" "PipeDream profile: tasks contracted"
printf '%-14s %28s %12s   %s\n' "model" "(bottlenecks, segments)" "(model, ms)" "(bottlenecks, segments)"
for f in "$OUT"/*.onnx; do
    m=$(basename "$f" .onnx)
    "$C" dag import onnx "$f" -o "$OUT/$m.json" --scenario "$OUT/$m-scenario.json" --servers 16 2>"$OUT/$m.log" ||
        { cat "$OUT/$m.log"; exit 1; }
    "$C" nona solve "$OUT/$m-scenario.json" -o "$OUT/$m-table.json" >"$OUT/$m-solve.txt" 2>&1 ||
        { cat "$OUT/$m-solve.txt"; exit 1; }
    j=$(sed -n 's/^method exact: mean JCT \([^ ]*\) s.*/\1/p' "$OUT/$m-solve.txt")
    j=$(awk -v j="$j" 'BEGIN { printf "%.3f", 1000 * j }')
    set -- $(summary "$OUT/$m.json")
    a=$(printf '%s -> %s (%s, %s)' "$1" "$2" "$3" "$4")
    b="-"
    if [ -f "$PD/$m.txt" ]; then
        set -- $(summary "$PD/$m.txt")
        b=$(printf '%s -> %s (%s, %s)' "$1" "$2" "$3" "$4")
    fi
    printf '%-14s %28s %12s   %s\n' "$m" "$a" "$j" "$b"
done
