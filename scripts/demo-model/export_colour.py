"""Exports a train_colour.py checkpoint to models/demo-colour: model.onnx, model.json and eval.txt.

    /usr/bin/python3 scripts/demo-model/export_colour.py --ckpt /tmp/demo-colour/run1/last.pt \
        --out models/demo-colour --eval /tmp/demo-colour/eval --verify-dir /tmp/demo-colour/verify

ONNX: opset 13, input "images" float32 [batch, 3, 64, 64] (the crop letterboxed into 64x64 with
padding 114, RGB / 255), one output "probabilities" float32 [batch, 6]: the softmax over the classes
of model.json's labels (red, yellow, green, cyan, blue, magenta). The batch axis is dynamic.

eval.txt: accuracy and confusion table on the held-out crops of --eval (PyTorch, the exported
module). With --verify-dir it also writes PyTorch's probabilities for every held-out crop
(reference.json) so that verify-colour-onnx.ts can compare onnxruntime-node with them.
"""
import argparse
import json
import os
import re
import sys

import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_colour as T  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True, help="model directory (model.onnx, model.json, eval.txt)")
    ap.add_argument("--eval", required=True, help="generate_crops.ts --split eval directory")
    ap.add_argument("--verify-dir", help="write PyTorch's probabilities of the held-out crops here")
    args = ap.parse_args()
    torch.set_num_threads(2)

    ck = torch.load(args.ckpt, map_location="cpu")
    net = T.Net(**ck["config"])
    net.load_state_dict(ck["model"])
    net.eval()
    model = T.Exported(net).eval()
    params = T.n_params(net)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.onnx")
    dummy = torch.rand(1, 3, T.SIZE, T.SIZE)
    with torch.no_grad():
        torch.onnx.export(model, dummy, path, opset_version=13, input_names=["images"],
                          output_names=["probabilities"], do_constant_folding=True,
                          dynamic_axes={"images": {0: "batch"}, "probabilities": {0: "batch"}})
    m = onnx.load(path)
    onnx.checker.check_model(m, full_check=True)
    dims = lambda v: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]  # noqa: E731
    print("inputs:", [(i.name, dims(i)) for i in m.graph.input])
    print("outputs:", [(o.name, dims(o)) for o in m.graph.output])
    print("opset:", [(o.domain, o.version) for o in m.opset_import])
    size = os.path.getsize(path)
    print(f"size: {size} bytes, parameters: {params}, nodes: {len(m.graph.node)}")
    assert [i.name for i in m.graph.input] == ["images"] and [o.name for o in m.graph.output] == ["probabilities"]
    assert dims(m.graph.input[0]) == ["batch", 3, T.SIZE, T.SIZE]
    assert dims(m.graph.output[0]) == ["batch", T.NC]
    assert size < 500_000, "model.onnx should stay under 500 KB"

    labels = list(ck.get("labels", T.LABELS))
    assert labels == T.LABELS
    cfg = {
        "name": "demo-colour",
        "description": (f"Demo colour classifier: the hue class ({', '.join(labels)}) of the shape in a crop of a "
                        f"demo scene; a ~{round(params / 1000)}k-parameter CNN trained from scratch on CPU on crops of "
                        "scenes from scripts/demo-model/scenes.ts (generate_crops.ts)"),
        "labels": labels,
        "input": {"name": "images", "width": T.SIZE, "height": T.SIZE, "layout": "NCHW", "dtype": "float32",
                  "resize": "letterbox", "color": "RGB", "scale": 255, "mean": [0, 0, 0], "std": [1, 1, 1],
                  "padValue": T.PAD_VALUE},
        "output": {"format": "classification"},
        "defaults": {"threshold": 0, "topK": 1},
        # a child stage's crops run as one batch: a run of this tiny model costs little more for 32 crops than for one
        "batching": {"maxBatchSize": 32},
    }
    text = json.dumps(cfg, indent=2)
    # keep arrays of plain values on one line
    text = re.sub(r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    assert json.loads(text) == cfg
    with open(os.path.join(args.out, "model.json"), "w") as f:
        f.write(text + "\n")

    images, labels_np, meta = T.load_set(args.eval)
    acc, conf, report, probs = T.evaluate(net, images, labels_np, meta)
    with torch.no_grad():
        exported = model(T.to_tensor(images[:256])).numpy()
    assert abs(exported - probs[:256]).max() < 1e-5  # the exported module is what was evaluated
    train_seeds = ck.get("train_seeds")
    header = [
        "demo-colour: held-out evaluation (export_colour.py, PyTorch; verify-colour-onnx.ts checks that",
        "onnxruntime-node gives the same classes)",
        f"model: {params} parameters, model.onnx {size} bytes, opset 13, {ck.get('steps')} training steps",
    ]
    if train_seeds:
        header.append(f"training: {ck.get('train_crops')} crops of scenes {train_seeds[0]}-{train_seeds[1]}")
    with open(os.path.join(args.out, "eval.txt"), "w") as f:
        f.write("\n".join(header) + "\n\n" + report + "\n")
    print(report)
    print("wrote", path, "model.json and eval.txt")

    if args.verify_dir:
        os.makedirs(args.verify_dir, exist_ok=True)
        ref = {"eval": os.path.abspath(args.eval),
               "crops": [{"file": m["file"], "classId": m["classId"], "probabilities": [round(float(v), 7) for v in p]}
                         for m, p in zip(meta, probs)]}
        with open(os.path.join(args.verify_dir, "reference.json"), "w") as f:
            json.dump(ref, f)
        print(f"wrote PyTorch's probabilities of {len(meta)} held-out crops to {args.verify_dir}/reference.json")


if __name__ == "__main__":
    main()
