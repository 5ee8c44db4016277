#!/usr/bin/python3
"""Exports a YOLOv8n-sized detector (random weights) to ONNX for benchmarks.

The network follows Ultralytics YOLOv8n layer for layer (width 0.25, depth
0.33: Conv/C2f/SPPF backbone, PAN neck, decoupled anchor-free head with DFL),
about 3.2 M parameters and 8.7 GFLOPs at 640x640, so it costs what a real
YOLOv8n costs. Weights are random (nothing can be downloaded here); speed does
not depend on them. The output follows the Ultralytics convention the server
decodes: [batch, 4 + 80, 8400], centre x/y, width, height in input pixels, then
80 sigmoid class scores. The batch axis is dynamic (input "images" is
[batch, 3, size, size]), so the server can run several images per call.

Random weights alone score every anchor alike (about 0.53 for every class
and any image: the untrained network's features barely vary), so every one
of the 8400 anchors would pass a 0.25 threshold, which no trained detector
does. A fixed scene is added to the class logits instead: background
anchors at -8 (score 0.0003, as a trained head scores background), and 8
objects of one class each, whose anchors score 1 - d at a distance of d
cells from the object's centre on each of the three levels: about 20
anchors an object pass 0.25, some 160 in all, overlapping as a trained
model's candidates do, so decoding and NMS cost what they cost on a real
photograph. Speed does not depend on the weights.

Run with Debian's python3 (apt-get install python3-torch):
    /usr/bin/python3 scripts/export-yolov8n.py OUT_DIR [--size 640]
It writes OUT_DIR/model.onnx and OUT_DIR/model.json.
"""
import argparse
import json
import os
import warnings

import torch
import torch.nn as nn


class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut):
        super().__init__()
        self.cv1 = Conv(c, c, 3)
        self.cv2 = Conv(c, c, 3)
        self.add = shortcut

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C2f(nn.Module):
    def __init__(self, c1, c2, n=1, shortcut=False):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = Conv(c1, 2 * self.c, 1)
        self.cv2 = Conv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))  # not chunk(): see Detect.forward (same values)
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1, c2, k=5):
        super().__init__()
        c_ = c1 // 2
        self.cv1 = Conv(c1, c_, 1)
        self.cv2 = Conv(c_ * 4, c2, 1)
        self.m = nn.MaxPool2d(k, 1, k // 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


def scene_logits(nc, strides, size, objects=8, seed=1):
    """[1, nc, anchors] added to the class logits: see the module's docstring."""
    g = torch.Generator().manual_seed(seed)
    levels = [(size // s, s) for s in strides]
    logits = [torch.full((nc, n * n), -8.0) for n, _ in levels]
    for _ in range(objects):
        cx, cy = (torch.rand(2, generator=g) * size * 0.8 + size * 0.1).tolist()
        cls = int(torch.randint(nc, (1,), generator=g))
        for (n, s), level in zip(levels, logits):
            ys, xs = torch.meshgrid(torch.arange(n) + 0.5, torch.arange(n) + 0.5, indexing='ij')
            d = torch.sqrt((xs - cx / s) ** 2 + (ys - cy / s) ** 2).flatten()
            level[cls] = torch.maximum(level[cls], 1.0 - 1.5 * d)
    return torch.cat(logits, 1).unsqueeze(0)


class Detect(nn.Module):
    def __init__(self, nc, ch, strides, reg_max=16, size=640):
        super().__init__()
        self.nc, self.reg_max, self.strides = nc, reg_max, strides
        self.register_buffer('scene', scene_logits(nc, strides, size))
        c2 = max(16, ch[0] // 4, reg_max * 4)
        c3 = max(ch[0], min(nc, 100))
        self.cv2 = nn.ModuleList(nn.Sequential(Conv(x, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for x in ch)
        self.cv3 = nn.ModuleList(nn.Sequential(Conv(x, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for x in ch)
        self.register_buffer('bins', torch.arange(reg_max, dtype=torch.float32).view(1, 1, reg_max, 1))

    def forward(self, feats):
        boxes, scores, anchors, strides = [], [], [], []
        for i, x in enumerate(feats):
            # The ONNX export has a dynamic batch axis. h and w are fixed by the input size: plain ints
            # keep the anchor grid a constant. The batch size stays traced (x.shape[0], not -1), which
            # lets torch's shape inference keep output0's static dims [batch, 84, 8400].
            h, w = int(x.shape[2]), int(x.shape[3])
            boxes.append(self.cv2[i](x).view(x.shape[0], 4 * self.reg_max, h * w))
            scores.append(self.cv3[i](x).view(x.shape[0], self.nc, h * w))
            sy, sx = torch.meshgrid(torch.arange(h, dtype=torch.float32) + 0.5, torch.arange(w, dtype=torch.float32) + 0.5, indexing='ij')
            anchors.append(torch.stack((sx, sy), 0).view(2, -1))
            strides.append(torch.full((1, h * w), float(self.strides[i])))
        box = torch.cat(boxes, 2)
        anchor = torch.cat(anchors, 1).unsqueeze(0)
        stride = torch.cat(strides, 1).unsqueeze(0)
        n = anchor.shape[2]
        # DFL: expected distance from a softmax over reg_max bins, per side.
        dist = (box.view(box.shape[0], 4, self.reg_max, n).softmax(2) * self.bins).sum(2)
        lt, rb = dist[:, :2], dist[:, 2:]  # not chunk(): with a dynamic batch it exports as Shape-driven Slices
        x1y1, x2y2 = anchor - lt, anchor + rb
        xywh = torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * stride
        return torch.cat((xywh, (torch.cat(scores, 2) + self.scene).sigmoid()), 1)


class YOLOv8n(nn.Module):
    def __init__(self, nc=80, size=640):
        super().__init__()
        self.b0, self.b1, self.b2 = Conv(3, 16, 3, 2), Conv(16, 32, 3, 2), C2f(32, 32, 1, True)
        self.b3, self.b4 = Conv(32, 64, 3, 2), C2f(64, 64, 2, True)
        self.b5, self.b6 = Conv(64, 128, 3, 2), C2f(128, 128, 2, True)
        self.b7, self.b8, self.b9 = Conv(128, 256, 3, 2), C2f(256, 256, 1, True), SPPF(256, 256)
        self.up = nn.Upsample(scale_factor=2, mode='nearest')
        self.h12, self.h15 = C2f(384, 128), C2f(192, 64)
        self.h16, self.h18 = Conv(64, 64, 3, 2), C2f(192, 128)
        self.h19, self.h21 = Conv(128, 128, 3, 2), C2f(384, 256)
        self.detect = Detect(nc, (64, 128, 256), (8, 16, 32), size=size)

    def forward(self, x):
        p3 = self.b4(self.b3(self.b2(self.b1(self.b0(x)))))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        h12 = self.h12(torch.cat((self.up(p5), p4), 1))
        h15 = self.h15(torch.cat((self.up(h12), p3), 1))
        h18 = self.h18(torch.cat((self.h16(h15), h12), 1))
        h21 = self.h21(torch.cat((self.h19(h18), p5), 1))
        return self.detect([h15, h18, h21])


COCO = ['person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat', 'traffic light',
        'fire hydrant', 'stop sign', 'parking meter', 'bench', 'bird', 'cat', 'dog', 'horse', 'sheep', 'cow',
        'elephant', 'bear', 'zebra', 'giraffe', 'backpack', 'umbrella', 'handbag', 'tie', 'suitcase', 'frisbee',
        'skis', 'snowboard', 'sports ball', 'kite', 'baseball bat', 'baseball glove', 'skateboard', 'surfboard',
        'tennis racket', 'bottle', 'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl', 'banana', 'apple',
        'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair', 'couch',
        'potted plant', 'bed', 'dining table', 'toilet', 'tv', 'laptop', 'mouse', 'remote', 'keyboard',
        'cell phone', 'microwave', 'oven', 'toaster', 'sink', 'refrigerator', 'book', 'clock', 'vase', 'scissors',
        'teddy bear', 'hair drier', 'toothbrush']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('out')
    parser.add_argument('--size', type=int, default=640)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = YOLOv8n(size=args.size).eval()
    # Fold BatchNorm into the convolutions, as Ultralytics' export does.
    for m in model.modules():
        if isinstance(m, Conv):
            w = m.conv.weight
            scale = m.bn.weight / torch.sqrt(m.bn.running_var + m.bn.eps)
            fused = nn.Conv2d(m.conv.in_channels, m.conv.out_channels, m.conv.kernel_size, m.conv.stride, m.conv.padding, bias=True)
            fused.weight.data = w * scale.view(-1, 1, 1, 1)
            fused.bias.data = m.bn.bias - m.bn.running_mean * scale
            m.conv, m.bn = fused, nn.Identity()
    params = sum(p.numel() for p in model.parameters())
    os.makedirs(args.out, exist_ok=True)
    dummy = torch.zeros(1, 3, args.size, args.size)
    with torch.no_grad():
        out = model(dummy)
    warnings.filterwarnings('ignore', category=torch.jit.TracerWarning)  # the int() of h and w above, on purpose
    torch.onnx.export(model, dummy, os.path.join(args.out, 'model.onnx'), opset_version=13,
                      input_names=['images'], output_names=['output0'],
                      dynamic_axes={'images': {0: 'batch'}, 'output0': {0: 'batch'}})
    config = {
        'name': 'yolov8n-bench',
        'description': f'YOLOv8n-sized network with random weights for benchmarks ({params / 1e6:.2f} M parameters)',
        'labels': COCO,
        'input': {'name': 'images', 'width': args.size, 'height': args.size},
        'output': {'format': 'yolov8'},
        'defaults': {'threshold': 0.25, 'iou': 0.45, 'maxDetections': 100},
    }
    with open(os.path.join(args.out, 'model.json'), 'w') as f:
        json.dump(config, f, indent=2)
    passing = int(((out[0, 4:].max(0).values) >= 0.25).sum())
    print(f'parameters={params} output={list(out.shape)} anchors scoring 0.25 or more={passing} -> {args.out}')


if __name__ == '__main__':
    main()
