#!/usr/bin/env python3
"""export_torchvision.py - real models as ONNX for `contend dag import onnx` (issue #30).

Exports torchvision's architectures with untrained weights (weights=None: no
download; the import reads shapes, never weight values) and a transformer
encoder block, in inference mode at batch 1, opset 13, then runs ONNX's shape
inference so every tensor has a shape:

  alexnet, vgg16, resnet18, densenet121   (PipeDream profiles of the same
                                           architectures: ../shared/data/pipedream)
  resnet50, inception_v3, squeezenet1_0   (the architectures issue #30 names)
  transformer                             (an encoder block as
                                           torch.nn.TransformerEncoderLayer computes it:
                                           d_model 512, 8 heads, 128 tokens)

Needs Debian's python3-torch, python3-torchvision and python3-onnx (the
system python3: /usr/bin/python3). `make onnx-models` runs it into
build/onnx and imports, contracts and splits each model.

usage: export_torchvision.py OUTDIR [MODEL ...]
"""
import os
import sys

try:
    import onnx
    import torch
    import torchvision
except ImportError as e:
    sys.exit("export_torchvision.py: needs python3-torch, python3-torchvision and python3-onnx (%s)" % e)


class Block(torch.nn.Module):
    """A post-norm transformer encoder block (as torch.nn.TransformerEncoderLayer
    computes it) with its head split written with static sizes: the library
    layer exports its shapes as Shape / Gather / Slice arithmetic that ONNX's
    shape inference (1.12) cannot resolve, and the import needs every shape."""

    def __init__(self, d=512, heads=8, ff=2048, tokens=128):
        super().__init__()
        self.d, self.h, self.s = d, heads, tokens
        self.q, self.k, self.v, self.o = (torch.nn.Linear(d, d) for _ in range(4))
        self.up, self.down = torch.nn.Linear(d, ff), torch.nn.Linear(ff, d)
        self.norm1, self.norm2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)

    def forward(self, x):
        s, h, dh = self.s, self.h, self.d // self.h
        q = self.q(x).reshape(1, s, h, dh).transpose(1, 2)
        k = self.k(x).reshape(1, s, h, dh).transpose(1, 2)
        v = self.v(x).reshape(1, s, h, dh).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(2, 3) / dh ** 0.5, dim=-1) @ v
        x = self.norm1(x + self.o(a.transpose(1, 2).reshape(1, s, self.d)))
        return self.norm2(x + self.down(torch.relu(self.up(x))))


def build(name):
    m = torchvision.models
    if name == "inception_v3":
        return m.inception_v3(weights=None, aux_logits=False, init_weights=False), (1, 3, 299, 299)
    if name == "transformer":
        return Block(), (1, 128, 512)
    return getattr(m, name)(weights=None), (1, 3, 224, 224)


MODELS = ["alexnet", "vgg16", "resnet18", "densenet121", "resnet50", "inception_v3", "squeezenet1_0", "transformer"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(30)
    for name in sys.argv[2:] or MODELS:
        model, shape = build(name)
        model.eval()
        path = os.path.join(out, name + ".onnx")
        torch.onnx.export(model, torch.randn(*shape), path, opset_version=13, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
        onnx.save(onnx.shape_inference.infer_shapes(onnx.load(path), data_prop=True), path)
        g = onnx.load(path, load_external_data=False).graph
        print("wrote %s: %d nodes, %.1f MB" % (path, len(g.node), os.path.getsize(path) / 1e6))


if __name__ == "__main__":
    main()
