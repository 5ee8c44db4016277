#!/usr/bin/python3
"""Exports a torchvision detector the way its users do, with PyTorch's own
answer for one image, so a test can check the server serves the same:
SSDlite (--model ssdlite, the default) or Faster R-CNN (--model fasterrcnn).

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

The Faster R-CNN is torchvision's FasterRCNN class on another backbone, as
torchvision's detection tutorial builds one ("Modifying the model to add a
different backbone"): MobileNetV3-Small features at half width with a 1x1
convolution to 32 channels, one feature map, anchors of 32-256 px, RoIAlign
7x7, and a box head of 128 units instead of 1024 (so the file stays small).
Its transform keeps 320x320 images at their size (min_size = max_size =
320); its postprocessing is torchvision's own, all kept: score_thresh 0.05,
class-wise NMS at 0.5, detections_per_img 100 (the server once cut such
models' answers at its own 0.25 and 100: 43 of these 100 boxes score below
0.25). Random weights again (Kaiming re-initialisation, the classifier's
weights scaled by 20 so its scores spread over 0.07-1.0, neighbours at
least 2e-5 apart), proposals limited to 300 before and 100 after the RPN's
NMS. Its model.json sets no threshold or cap: the server answers ssd
outputs whole by default.

How it exports: torch.onnx.export(model, ([image],), ...), the usual way to
export a torchvision detector (its forward takes a list of [3, H, W]
images): opset 11, input "images" with dynamic height and width, outputs
named "boxes", "scores", "labels" in the order the model returns them. The
ONNX input therefore has no batch axis, which model.json says with
"batchAxis": false.

The test image: samples/scene.jpg's centre square resized to 320x320 (the
model's own input size, so the server's letterbox and the model's resize are
both the identity) and saved as PNG, so the server decodes exactly the
pixels PyTorch saw.

Run with Debian's python3 (apt-get install python3-torch python3-torchvision
python3-onnx):
    /usr/bin/python3 scripts/torchvision-export.py [--model fasterrcnn] [OUT_DIR]
OUT_DIR defaults to test/fixtures/torchvision (SSDlite) or
test/fixtures/torchvision-fasterrcnn. It writes model.onnx,
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
from torchvision.models import mobilenet_v3_small
from torchvision.models.detection import FasterRCNN, ssdlite320_mobilenet_v3_large
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
from torchvision.models.detection.rpn import AnchorGenerator
from torchvision.ops import MultiScaleRoIAlign

SIZE = 320
DETECTIONS = 8
SCORE_THRESH = 0.001  # torchvision's default for SSDlite, kept
FASTER_RCNN_CLASS_SCALE = 20.0  # spreads the class scores over 0.07-1.0
FASTER_RCNN_DETECTIONS = 100  # torchvision's detections_per_img, kept
LABELS = ["background", "circle", "square", "cone"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_ssdlite():
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


def build_fasterrcnn():
    torch.manual_seed(0)
    features = mobilenet_v3_small(weights=None, width_mult=0.5).features
    backbone = torch.nn.Sequential(features, torch.nn.Conv2d(features[-1].out_channels, 32, 1))
    backbone.out_channels = 32
    model = FasterRCNN(
        backbone,
        # the classes are the predictor's (num_classes must be None with one)
        rpn_anchor_generator=AnchorGenerator(sizes=((32, 64, 128, 256),), aspect_ratios=((0.5, 1.0, 2.0),)),
        box_roi_pool=MultiScaleRoIAlign(featmap_names=["0"], output_size=7, sampling_ratio=2),
        box_head=TwoMLPHead(32 * 7 * 7, 128),
        box_predictor=FastRCNNPredictor(128, len(LABELS)),
        min_size=SIZE,
        max_size=SIZE,
        rpn_pre_nms_top_n_test=300,
        rpn_post_nms_top_n_test=100,
        box_detections_per_img=FASTER_RCNN_DETECTIONS,
    )
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
                torch.nn.init.kaiming_normal_(module.weight, mode="fan_in")
        model.roi_heads.box_predictor.cls_score.weight.mul_(FASTER_RCNN_CLASS_SCALE)
    return model.eval()


MODELS = {
    "ssdlite": {
        "build": build_ssdlite,
        "out": "torchvision",
        "config": {
            "name": "torchvision-ssdlite",
            "description": "torchvision ssdlite320_mobilenet_v3_large (random weights, width 0.5, 3 classes) exported with "
            "torch.onnx.export by scripts/torchvision-export.py",
            # The model's own score_thresh: the server then answers every box the model keeps.
            "defaults": {"threshold": SCORE_THRESH},
        },
    },
    "fasterrcnn": {
        "build": build_fasterrcnn,
        "out": "torchvision-fasterrcnn",
        "config": {
            "name": "torchvision-fasterrcnn",
            "description": "torchvision FasterRCNN on a MobileNetV3-Small backbone (random weights, 3 classes) exported with "
            "torch.onnx.export by scripts/torchvision-export.py --model fasterrcnn",
        },
    },
}


def test_image():
    scene = Image.open(os.path.join(ROOT, "samples", "scene.jpg")).convert("RGB")
    side = min(scene.size)
    left, top = (scene.width - side) // 2, (scene.height - side) // 2
    return scene.crop((left, top, left + side, top + side)).resize((SIZE, SIZE), Image.BILINEAR)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=sorted(MODELS), default="ssdlite")
    parser.add_argument("out", nargs="?")
    args = parser.parse_args()
    spec = MODELS[args.model]
    args.out = args.out or os.path.join(ROOT, "test", "fixtures", spec["out"])
    os.makedirs(args.out, exist_ok=True)

    model = spec["build"]()
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
            # By position, in the order the model returns them: SSD's boxes,
            # scores, labels, but Faster R-CNN's boxes, labels, scores.
            output_names=list(out.keys()),
            dynamic_axes={"images": {1: "height", 2: "width"}, **{name: {0: "n"} for name in out}},
            do_constant_folding=True,
        )
    onnx.checker.check_model(onnx.load(model_path))

    config = {
        "name": spec["config"]["name"],
        "description": spec["config"]["description"],
        "labels": LABELS,
        "input": {"name": "images", "width": SIZE, "height": SIZE, "batchAxis": False},
        "output": {"format": "ssd"},
        **({"defaults": spec["config"]["defaults"]} if "defaults" in spec["config"] else {}),
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
    ordered = sorted(reference["scores"], reverse=True)
    if len(ordered) > 1:
        # The order (and the cut at detections_per_img) must not hang on float rounding.
        print(f"closest scores: {min(a - b for a, b in zip(ordered, ordered[1:])):.1e} apart")


if __name__ == "__main__":
    main()
