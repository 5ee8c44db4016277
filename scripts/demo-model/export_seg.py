"""Exports a train_seg.py checkpoint to ONNX (models/demo-seg/model.onnx) and writes models/demo-seg/model.json.

    /usr/bin/python3 scripts/demo-model/export_seg.py --ckpt /tmp/demo-seg/run1/best.pt --out models/demo-seg \
        [--verify-dir /tmp/demo-seg/verify --eval /tmp/demo-seg/eval]

ONNX: opset 13, input "images" float32 [batch,3,320,320] (letterboxed RGB / 255), two outputs in the
Ultralytics YOLOv8-seg layout, which the server reads as its "yolov8-seg" convention:
- "output0" float32 [batch, 4+C+NM, 2100]: rows 0-3 centre x, centre y, width, height in input-tensor
  pixels, then C per-class sigmoid scores, then NM mask coefficients;
- "output1" float32 [batch, NM, 80, 80]: the prototype masks, a quarter of the input's size.
No NMS inside. The batch axis is dynamic.

With --verify-dir it also writes a few letterboxed inputs and PyTorch's outputs for them (input_K.bin,
torch_K.bin = output0, protos_K.bin = output1; raw little-endian float32).
"""
import argparse
import json
import os
import re
import sys

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402
import train_seg as S  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True, help="model directory (model.onnx + model.json)")
    ap.add_argument("--verify-dir", help="write reference inputs/outputs here")
    ap.add_argument("--eval", help="evaluation set to take the reference inputs from")
    ap.add_argument("--threshold", type=float, default=0.35)
    ap.add_argument("--iou", type=float, default=0.5)
    args = ap.parse_args()
    torch.set_num_threads(2)

    ck = torch.load(args.ckpt, map_location="cpu")
    cfg_net = ck["config"]
    net = S.SegNet(**cfg_net)
    net.load_state_dict(ck["model"])
    model = S.SegExported(net).eval()
    nm = cfg_net["nm"]
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.onnx")
    dummy = torch.rand(1, 3, T.INPUT_H, T.INPUT_W)
    with torch.no_grad():
        torch.onnx.export(model, dummy, path, opset_version=13, input_names=["images"],
                          output_names=["output0", "output1"], do_constant_folding=True,
                          dynamic_axes={"images": {0: "batch"}, "output0": {0: "batch"}, "output1": {0: "batch"}})
    m = onnx.load(path)
    # torch loses the static dims behind the dynamic batch axis (see export.py): declare them.
    n_anchors = sum((T.INPUT_W // s) * (T.INPUT_H // s) for s in T.STRIDES)
    shapes = [[4 + T.NC + nm, n_anchors], [nm, T.INPUT_H // 4, T.INPUT_W // 4]]
    for out, shape in zip(m.graph.output, shapes):
        for d, v in zip(out.type.tensor_type.shape.dim[1:], shape):
            d.dim_value = v
    onnx.save(m, path)
    onnx.checker.check_model(m, full_check=True)
    dims = lambda v: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]  # noqa: E731
    print("inputs:", [(i.name, dims(i)) for i in m.graph.input])
    print("outputs:", [(o.name, dims(o)) for o in m.graph.output])
    print(f"size: {os.path.getsize(path) / 1e6:.2f} MB, nodes: {len(m.graph.node)}")
    assert [i.name for i in m.graph.input] == ["images"]
    assert [o.name for o in m.graph.output] == ["output0", "output1"]
    assert dims(m.graph.input[0]) == ["batch", 3, T.INPUT_H, T.INPUT_W]
    assert dims(m.graph.output[0]) == ["batch"] + shapes[0]
    assert dims(m.graph.output[1]) == ["batch"] + shapes[1]

    params = sum(p.numel() for p in net.parameters())
    cfg = {
        "name": "demo-seg",
        "description": (f"Demo instance segmentation model for {T.NC} synthetic shapes ({', '.join(T.LABELS)}); a ~"
                        f"{params / 1e6:.1f}M-parameter YOLOv8-seg-style network ({nm} prototypes at a quarter of "
                        "the input) trained from scratch on CPU on scenes and visible-pixel masks from "
                        "scripts/demo-model/scenes.ts"),
        "labels": list(ck.get("labels", T.LABELS)),
        "input": {"name": "images", "width": T.INPUT_W, "height": T.INPUT_H, "layout": "NCHW", "dtype": "float32",
                  "resize": "letterbox", "color": "RGB", "scale": 255, "mean": [0, 0, 0], "std": [1, 1, 1],
                  "padValue": T.PAD_VALUE},
        "output": {"format": "yolov8-seg"},
        "defaults": {"threshold": args.threshold, "iou": args.iou, "maxDetections": 100},
    }
    text = json.dumps(cfg, indent=2)
    text = re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    assert json.loads(text) == cfg
    with open(os.path.join(args.out, "model.json"), "w") as f:
        f.write(text + "\n")
    print(f"wrote {path} ({params:,} parameters) and model.json")

    if args.verify_dir:
        os.makedirs(args.verify_dir, exist_ok=True)
        if args.eval:
            imgs, meta, gts = T.load_eval_set(args.eval, limit=3)
            xs = [torch.from_numpy(im).permute(2, 0, 1)[None].float() / 255.0 for im in imgs]
        else:
            xs = [torch.rand(1, 3, T.INPUT_H, T.INPUT_W) for _ in range(3)]
        for k, x in enumerate(xs):
            with torch.no_grad():
                y, p = model(x)
            x.numpy().astype("<f4").tofile(os.path.join(args.verify_dir, f"input_{k}.bin"))
            y.numpy().astype("<f4").tofile(os.path.join(args.verify_dir, f"torch_{k}.bin"))
            p.numpy().astype("<f4").tofile(os.path.join(args.verify_dir, f"protos_{k}.bin"))
        print(f"wrote {len(xs)} reference pairs to {args.verify_dir}")


if __name__ == "__main__":
    main()
