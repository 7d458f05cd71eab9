#!/bin/sh
# onnx_cli.sh - `contend dag import onnx`: a model to a DAG and a scenario,
# then a solved table (the two commands docs/formats.md gives); the device
# presets and overrides; --batch on symbolic and static batches; one-line
# errors that leave no output behind. Skips when built without protobuf-c.
. tests/cli-lib.sh
M=data/onnx
if ! $C dag import onnx $M/residual.onnx -o "$T/probe.json" 2>"$T/probe.err"; then
    grep -q "this build reads no ONNX" "$T/probe.err" || fail "import failed: $(cat "$T/probe.err")"
    echo "SKIP: built without protobuf-c (sh .ci/install-deps installs it)"
    finish
    exit $?
fi

# two commands: a DAG and a one-class scenario, then a table
$C dag import onnx $M/attention.onnx -o "$T/attn.json" --scenario "$T/attn-scenario.json" --servers 6 \
    --load 0.4 2>"$T/import.err" || fail "import with --scenario: $(cat "$T/import.err")"
grep -q "attention.onnx: 14 nodes (opset 13) -> 15 tasks, 18 edges" "$T/import.err" ||
    fail "import summary: $(cat "$T/import.err")"
grep -q '"dag":	"attn.json"' "$T/attn-scenario.json" || fail "scenario names the DAG beside it: $(cat "$T/attn-scenario.json")"
grep -q '"name":	"attention"' "$T/attn.json" || fail "DAG named after the file"
$C nona solve "$T/attn-scenario.json" -o "$T/attn-table.json" >"$T/solve.out" 2>&1 || fail "solve: $(cat "$T/solve.out")"
grep -q "servers rho 0.4000" "$T/solve.out" || fail "--load 0.4 is the servers' load: $(head -3 "$T/solve.out")"
[ -s "$T/attn-table.json" ] || fail "no table"
# a scenario in another folder names the DAG by its absolute path
mkdir "$T/sc"
$C dag import onnx $M/residual.onnx -o "$T/res.json" --scenario "$T/sc/s.json" --rate 1000 2>/dev/null ||
    fail "import --rate"
grep -q "\"dag\":	\"/.*/res.json\"" "$T/sc/s.json" || fail "absolute DAG path: $(cat "$T/sc/s.json")"
grep -q '"arrival_rate":	1000' "$T/sc/s.json" || fail "--rate"
$C nona solve "$T/sc/s.json" >/dev/null 2>&1 || fail "solve from another folder"

# devices: times scale with the roofline; overrides win
$C dag import onnx $M/residual.onnx -o "$T/a100.json" 2>/dev/null
$C dag import onnx $M/residual.onnx --device t4 -o "$T/t4.json" 2>/dev/null
$C dag import onnx $M/residual.onnx --flops 19.5e11 -o "$T/slow.json" 2>/dev/null
conv() { sed -n '/"conv1"/{n;s/.*"time":[^0-9]*\([0-9.e+-]*\).*/\1/p}' "$1"; }
awk -v a="$(conv "$T/a100.json")" -v t="$(conv "$T/t4.json")" -v s="$(conv "$T/slow.json")" 'BEGIN {
    if (!(a > 0) || (t / a - 19.5 / 8.1) ^ 2 > 1e-12 || (s / a - 10) ^ 2 > 1e-12) exit 1 }' ||
    fail "conv1 times a100 $(conv "$T/a100.json") t4 $(conv "$T/t4.json") slow $(conv "$T/slow.json")"

# batches
$C dag import onnx $M/dynamic.onnx --batch 8 -o "$T/b8.json" 2>/dev/null || fail "--batch on a symbolic batch"
grep -q '"bytes":	1605632' "$T/b8.json" || fail "batch 8 activations (8 x 16 x 56 x 56 x 4 bytes)"
expect_error 2 "--batch: the model has no symbolic batch dimension" -- $C dag import onnx $M/residual.onnx --batch 8 -o "$T/out.json"

# errors: one line, the file and the reason, nothing written
expect_error 2 "no_shapes.onnx: tensor 'm0' (output of node 0 'branch0_matmul', MatMul): no shape" -- \
    $C dag import onnx $M/no_shapes.onnx -o "$T/out.json"
expect_error 2 "control_flow.onnx: node 0 ('branch', If): control flow" -- $C dag import onnx $M/control_flow.onnx -o "$T/out.json"
expect_error 2 "no device named 'tpu' (known: a100, h100, v100, t4, xeon-8380)" -- \
    $C dag import onnx $M/residual.onnx --device tpu -o "$T/out.json"
expect_error 2 "not an ONNX model" -- $C dag import onnx $M/devices.json -o "$T/out.json"
expect_error 2 "missing.onnx: cannot open" -- $C dag import onnx "$T/missing.onnx" -o "$T/out.json"
expect_error 2 "--load: expected a fraction in (0, 1)" -- $C dag import onnx $M/residual.onnx --load 1.5 -o "$T/out.json"
finish
