#!/usr/bin/python3
"""Exports torchvision's SSDlite detector the way its users do, with PyTorch's
own answer for one image, so a test can check the server serves the same.

What it builds: torchvision's ssdlite320_mobilenet_v3_large with random
weights (nothing can be downloaded here: weights=None, weights_backbone=None,
torch.manual_seed(0)), 3 classes plus torchvision's background (label 0), and
a MobileNetV3 backbone at half width (width_mult=0.5) so the ONNX file stays
small. The model is what torchvision builds, only untrained: its transform
(resize to 320x320, normalise) and postprocessing (score threshold, top-k per
class, class-wise NMS at IoU 0.55) are torchvision's, inside the graph.

What it changes, so that random weights give a reference worth comparing:
- torchvision initialises an untrained SSDlite's convolutions with a normal
  of std 0.03, which shrinks the features to nothing through the backbone:
  every box then scores exactly 1/4 (4 classes, softmax of zero logits) and
  their order is a tie. The convolutions are re-initialised with Kaiming
  (fan_in), which keeps the features' scale, and the classification head's
  weights are then scaled by 0.3 so the softmax is not saturated either: the
  scores spread over about 0.49-0.54, neighbours at least 6e-4 apart, so the
  order and which boxes make the cut do not hang on float rounding.
- detections_per_img is lowered from 300 to DETECTIONS, so the reference is
  a handful of boxes instead of hundreds. score_thresh stays torchvision's
  0.001 (every box passes it); model.json's defaults.threshold says the same.

How it exports: torch.onnx.export(model, ([image],), ...), the usual way to
export a torchvision detector (its forward takes a list of [3, H, W]
images): opset 11, input "images" with dynamic height and width, outputs
"boxes", "scores", "labels". The ONNX input therefore has no batch axis, which model.json says
with "batchAxis": false.

The test image: samples/scene.jpg's centre square resized to 320x320 (the
model's own input size, so the server's letterbox and the model's resize are
both the identity) and saved as PNG, so the server decodes exactly the
pixels PyTorch saw.

Run with Debian's python3 (apt-get install python3-torch python3-torchvision
python3-onnx):
    /usr/bin/python3 scripts/torchvision-export.py [OUT_DIR]
OUT_DIR defaults to test/fixtures/torchvision. It writes model.onnx,
model.json, image.png and reference.json (PyTorch's boxes in input pixels
x1, y1, x2, y2, its scores and its labels, in its order). The export is
deterministic: a second run writes the same bytes.
test/e2e/torchvision-export.test.ts serves the model and compares the
server's answer with reference.json.
"""
import argparse
import json
import os
import warnings

import numpy as np
import onnx
import torch
import torchvision
from PIL import Image
from torchvision.models.detection import ssdlite320_mobilenet_v3_large

SIZE = 320
DETECTIONS = 8
SCORE_THRESH = 0.001  # torchvision's default for SSDlite, kept
LABELS = ["background", "circle", "square", "cone"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_model():
    torch.manual_seed(0)
    model = ssdlite320_mobilenet_v3_large(
        weights=None,
        weights_backbone=None,
        num_classes=len(LABELS),
        width_mult=0.5,
        score_thresh=SCORE_THRESH,
        detections_per_img=DETECTIONS,
    )
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Conv2d):
                torch.nn.init.kaiming_normal_(module.weight, mode="fan_in")
        for module in model.head.classification_head.modules():
            if isinstance(module, torch.nn.Conv2d):
                module.weight.mul_(0.3)
    return model.eval()


def test_image():
    scene = Image.open(os.path.join(ROOT, "samples", "scene.jpg")).convert("RGB")
    side = min(scene.size)
    left, top = (scene.width - side) // 2, (scene.height - side) // 2
    return scene.crop((left, top, left + side, top + side)).resize((SIZE, SIZE), Image.BILINEAR)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=os.path.join(ROOT, "test", "fixtures", "torchvision"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    model = build_model()
    image_path = os.path.join(args.out, "image.png")
    test_image().save(image_path)
    # Read back what was written, as the server will.
    pixels = np.asarray(Image.open(image_path).convert("RGB"), dtype=np.float32)
    image = torch.from_numpy(pixels).permute(2, 0, 1).contiguous() / 255.0

    with torch.no_grad():
        (out,) = model([image])

    model_path = os.path.join(args.out, "model.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            ([image],),
            model_path,
            opset_version=11,
            input_names=["images"],
            output_names=["boxes", "scores", "labels"],
            dynamic_axes={"images": {1: "height", 2: "width"}, "boxes": {0: "n"}, "scores": {0: "n"}, "labels": {0: "n"}},
            do_constant_folding=True,
        )
    onnx.checker.check_model(onnx.load(model_path))

    config = {
        "name": "torchvision-ssdlite",
        "description": "torchvision ssdlite320_mobilenet_v3_large (random weights, width 0.5, 3 classes) exported with "
        "torch.onnx.export by scripts/torchvision-export.py",
        "labels": LABELS,
        "input": {"name": "images", "width": SIZE, "height": SIZE, "batchAxis": False},
        "output": {"format": "ssd"},
        # The model's own score_thresh: the server then answers every box the model keeps.
        "defaults": {"threshold": SCORE_THRESH},
    }
    with open(os.path.join(args.out, "model.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")

    reference = {
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "width": SIZE,
        "height": SIZE,
        "boxes": out["boxes"].tolist(),
        "scores": out["scores"].tolist(),
        "labels": out["labels"].tolist(),
    }
    with open(os.path.join(args.out, "reference.json"), "w") as f:
        json.dump(reference, f, indent=2)
        f.write("\n")

    print(f"model.onnx: {os.path.getsize(model_path)} bytes; {len(reference['scores'])} detections")
    for box, score, label in zip(reference["boxes"], reference["scores"], reference["labels"]):
        print(f"  {LABELS[label]:8s} {score:.6f} {[round(v, 2) for v in box]}")


if __name__ == "__main__":
    main()
