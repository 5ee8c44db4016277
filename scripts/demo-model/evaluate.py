"""mAP of a train.py checkpoint on a generated evaluation set (Python, PyTorch; same decoding as the ONNX model).

    /usr/bin/python3 scripts/demo-model/evaluate.py --ckpt /tmp/demo-model/run1/best.pt \
        --eval /tmp/demo-model/eval [--conf 0.001] [--iou 0.6] [--pr]

--eval accepts full-size sets (letterboxed here with PIL bilinear) and --resize-to sets
(pre-resized by sharp exactly like the server; only padded here). Boxes are mapped back to
original-image pixels the way the server does before IoU is computed. --pr also prints
precision / recall / F1 at IoU 0.5 for a few score thresholds (to choose model.json defaults).
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402


def pr_table(exported, imgs, meta, gts, iou_nms, thresholds):
    dets = []
    for s in range(0, len(imgs), 25):
        x = torch.from_numpy(imgs[s:s + 25]).permute(0, 3, 1, 2).float() / 255.0
        for (b, sc, c), (rx, ry, rw, rh, w, h) in zip(T.predict(exported, x, 0.05, iou_nms), meta[s:s + 25]):
            b = b.double().numpy().copy()
            b[:, [0, 2]] = np.clip((b[:, [0, 2]] - rx) / rw, 0, 1) * w
            b[:, [1, 3]] = np.clip((b[:, [1, 3]] - ry) / rh, 0, 1) * h
            dets.append((b, sc.numpy(), c.numpy()))
    n_gt = sum(len(g[0]) for g in gts)
    for t in thresholds:
        tp = fp = 0
        for (b, s, c), (gb, gc) in zip(dets, gts):
            keep = s >= t
            used = np.zeros(len(gb), bool)
            for bb, cc in sorted(zip(b[keep], c[keep]), key=lambda z: 0):
                best, bi = 0.0, -1
                for j, (g, gcl) in enumerate(zip(gb, gc)):
                    if used[j] or gcl != cc:
                        continue
                    iw = max(0, min(g[2], bb[2]) - max(g[0], bb[0]))
                    ih = max(0, min(g[3], bb[3]) - max(g[1], bb[1]))
                    inter = iw * ih
                    u = (g[2] - g[0]) * (g[3] - g[1]) + (bb[2] - bb[0]) * (bb[3] - bb[1]) - inter
                    if inter / u > best:
                        best, bi = inter / u, j
                if best >= 0.5:
                    used[bi] = True
                    tp += 1
                else:
                    fp += 1
        p = tp / max(1, tp + fp)
        r = tp / n_gt
        print(f"  threshold {t:.2f}: precision {p:.3f} recall {r:.3f} F1 {2 * p * r / max(1e-9, p + r):.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--eval", required=True, nargs="+")
    ap.add_argument("--conf", type=float, default=0.001)
    ap.add_argument("--iou", type=float, nargs="+", default=[0.6])
    ap.add_argument("--pr", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(2)
    ck = torch.load(args.ckpt, map_location="cpu")
    net = T.Net(**ck["config"])
    net.load_state_dict(ck["model"])
    exported = T.Exported(net).eval()
    for d in args.eval:
        imgs, meta, gts = T.load_eval_set(d)
        for iou in args.iou:
            m50, m5095, per_class = T.evaluate(exported, imgs, meta, gts, conf=args.conf, iou=iou)
            print(f"{d} ({len(imgs)} images, conf {args.conf}, NMS IoU {iou}): mAP@0.5 {m50:.4f}  mAP@0.5:0.95 {m5095:.4f}")
            print("  AP@0.5 per class: " + ", ".join(f"{l} {a:.3f}" for l, a in zip(T.LABELS, per_class)))
        if args.pr:
            pr_table(exported, imgs, meta, gts, 0.5, [0.15, 0.25, 0.35, 0.45, 0.55])


if __name__ == "__main__":
    main()
