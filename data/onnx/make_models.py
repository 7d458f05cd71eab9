#!/usr/bin/env python3
"""make_models.py - small ONNX models for `contend dag import onnx` (issue #30).

Builds each model with python3-onnx's helper API (Debian: python3-onnx, 1.12),
runs ONNX's own shape inference where the model should carry full shapes,
checks it, and writes it next to this script. The outputs are committed;
run `python3 data/onnx/make_models.py` to rebuild them (the same onnx version
writes the same bytes).

  residual.onnx      Conv -> Relu -> Conv -> Add(skip) -> Relu: one residual
                     block (a chain with a skip edge), opset 13, static shapes
  branches.onnx      an inception-like fork-join: three MatMul+Relu branches
                     of different widths, Concat, a MatMul head
  attention.onnx     a transformer block: Q/K/V projections, scaled dot
                     product (Transpose, MatMul, Softmax, MatMul), output
                     projection with a residual Add, a two-layer MLP with a
                     residual Add
  no_shapes.onnx     branches.onnx without value_info (shape inference not
                     run): the import must say which tensor has no shape
  dynamic.onnx       residual.onnx with a symbolic batch dimension "N"
  control_flow.onnx  an If node with two subgraphs: refused
"""
import os
import sys

import numpy as np

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper, shape_inference
except ImportError:
    sys.exit("make_models.py: needs python3-onnx (apt-get install python3-onnx)")

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = [helper.make_opsetid("", 13)]
rng = np.random.default_rng(30)


def weight(name, *shape):
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32) * 0.1, name)


def save(model, name, infer=True):
    if infer:
        model = shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model)
    path = os.path.join(HERE, name)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    print("wrote", path, os.path.getsize(path), "bytes,", len(model.graph.node), "nodes")


def residual(batch=1):
    c = 16
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Add", ["c2", "x"], ["s"], name="add"),
        helper.make_node("Relu", ["s"], ["y"], name="relu2"),
    ]
    inits = [weight("w1", c, c, 3, 3), weight("b1", c), weight("w2", c, c, 3, 3), weight("b2", c)]
    g = helper.make_graph(nodes, "residual",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, c, 56, 56])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, c, 56, 56])], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="contend data/onnx/make_models.py")


def branches():
    d = 32
    widths = [32, 64, 128]
    nodes, inits, outs = [], [weight("w_head", sum(widths), 10)], []
    for i, w in enumerate(widths):
        inits.append(weight(f"w{i}", d, w))
        nodes.append(helper.make_node("MatMul", ["x", f"w{i}"], [f"m{i}"], name=f"branch{i}_matmul"))
        nodes.append(helper.make_node("Relu", [f"m{i}"], [f"r{i}"], name=f"branch{i}_relu"))
        outs.append(f"r{i}")
    nodes.append(helper.make_node("Concat", outs, ["cat"], name="concat", axis=1))
    nodes.append(helper.make_node("MatMul", ["cat", "w_head"], ["y"], name="head"))
    g = helper.make_graph(nodes, "branches", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, d])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 10])], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="contend data/onnx/make_models.py")


def attention():
    s, d, h = 128, 32, 128  # sequence, model width, MLP width
    scale = numpy_helper.from_array(np.array(1.0 / np.sqrt(d), dtype=np.float32), "scale")
    inits = [weight("wq", d, d), weight("wk", d, d), weight("wv", d, d), weight("wo", d, d),
             weight("w_up", d, h), weight("w_down", h, d), scale]
    nodes = [
        helper.make_node("MatMul", ["x", "wq"], ["q"], name="q_proj"),
        helper.make_node("MatMul", ["x", "wk"], ["k"], name="k_proj"),
        helper.make_node("MatMul", ["x", "wv"], ["v"], name="v_proj"),
        helper.make_node("Transpose", ["k"], ["kt"], name="k_transpose", perm=[1, 0]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"], name="scores"),
        helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="scale"),
        helper.make_node("Softmax", ["scaled"], ["attn"], name="softmax", axis=1),
        helper.make_node("MatMul", ["attn", "v"], ["ctx"], name="context"),
        helper.make_node("MatMul", ["ctx", "wo"], ["o"], name="o_proj"),
        helper.make_node("Add", ["o", "x"], ["h1"], name="residual1"),
        helper.make_node("MatMul", ["h1", "w_up"], ["u"], name="mlp_up"),
        helper.make_node("Relu", ["u"], ["ur"], name="mlp_relu"),
        helper.make_node("MatMul", ["ur", "w_down"], ["dn"], name="mlp_down"),
        helper.make_node("Add", ["dn", "h1"], ["y"], name="residual2"),
    ]
    g = helper.make_graph(nodes, "attention", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [s, d])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [s, d])], inits)
    return helper.make_model(g, opset_imports=OPSET, producer_name="contend data/onnx/make_models.py")


def control_flow():
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="then_relu")], "then", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, [4])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"], name="else_neg")], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [4])])
    nodes = [helper.make_node("If", ["cond"], ["y"], name="branch", then_branch=then_g, else_branch=else_g)]
    g = helper.make_graph(nodes, "control_flow",
                          [helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    return helper.make_model(g, opset_imports=OPSET, producer_name="contend data/onnx/make_models.py")


if __name__ == "__main__":
    save(residual(), "residual.onnx")
    save(branches(), "branches.onnx")
    save(attention(), "attention.onnx")
    save(branches(), "no_shapes.onnx", infer=False)
    save(residual("N"), "dynamic.onnx")
    save(control_flow(), "control_flow.onnx")
    # The fuzz harness's seeds (tests/fuzz/corpus/onnx): the same models
    # without the weights' values (the import reads only their shapes), and
    # subgraphs nested 40 deep, which the import refuses before unpacking.
    corpus = os.path.join(HERE, "..", "..", "tests", "fuzz", "corpus", "onnx")
    if os.path.isdir(corpus):
        for name in ["residual", "branches", "attention", "no_shapes", "dynamic", "control_flow"]:
            m = onnx.load(os.path.join(HERE, name + ".onnx"))
            for t in m.graph.initializer:
                t.ClearField("raw_data")
                t.ClearField("float_data")
            with open(os.path.join(corpus, name + ".onnx"), "wb") as f:
                f.write(m.SerializeToString())

        def wrap(num, body):
            n, head = len(body), bytearray([num << 3 | 2])
            while True:
                head.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
                n >>= 7
                if not n:
                    return bytes(head) + body

        deep = b""
        for _ in range(40):  # GraphProto.node / NodeProto.attribute / AttributeProto.g
            deep = wrap(1, wrap(5, wrap(6, deep)))
        with open(os.path.join(corpus, "deep_subgraphs.onnx"), "wb") as f:
            f.write(wrap(7, deep))  # ModelProto.graph
