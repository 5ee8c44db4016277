"""Trains the demo colour classifier (models/demo-colour): the hue class of the shape in a 64x64 crop.

Run with Debian's Python (torch 1.13, CPU); see README.md, "Colour classifier", for the whole pipeline:

    nice -n 10 node --import tsx scripts/demo-model/generate_crops.ts --out /tmp/demo-colour/eval \
        --split eval --seed-start 9000000 --count 1000
    nice -n 10 node --import tsx scripts/demo-model/generate_crops.ts --out /tmp/demo-colour/train \
        --split train --seed-start 1000000 --count 8000 --crops-per-object 2
    nice -n 10 /usr/bin/python3 scripts/demo-model/train_colour.py --data /tmp/demo-colour/train \
        --eval /tmp/demo-colour/eval --out /tmp/demo-colour/run --epochs 18 --time-budget 10

Input: float32 [N, 3, 64, 64], RGB / 255, the crop letterboxed with padding 114 (generate_crops.ts
builds it exactly as the server does). Output of the network: 6 logits in the order of LABELS; the
export (export_colour.py) adds the softmax.

Network (29,478 parameters): four 3x3 conv + BN + ReLU blocks of 16, 24, 32 and 48 channels; the
first has stride 2, the others are each followed by a 2x2 max pool (64 -> 32 -> 16 -> 8 -> 4); then
the 4x4x48 map flattened (the object is in the middle of its crop, so position matters: a ring's
hole or the gaps of a cross show the background) -> dropout 0.1 -> linear to 6 logits.

Training: AdamW (lr 3e-3, weight decay 1e-4), 1 epoch of linear warm-up then cosine decay, batch 128,
label smoothing 0.05; random horizontal and vertical flips and 90-degree rotations (the colour of a
shape does not change with them, and the letterbox padding stays 114). Seeded (--seed). The
held-out accuracy printed after each epoch is only watched: the last epoch's weights are saved
(last.pt), so the held-out figures are not tuned on. With --time-budget the learning-rate schedule
follows max(step progress, time progress), so a slow machine ends on time.
"""

import argparse
import json
import math
import os
import random
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from PIL import Image  # noqa: E402

LABELS = ["red", "yellow", "green", "cyan", "blue", "magenta"]
NC = len(LABELS)
SIZE = 64
PAD_VALUE = 114
MODEL_CONFIG = {"widths": [16, 24, 32, 48], "stem_stride": 2, "dropout": 0.1}


# --------------------------------------------------------------------------- data

def load_set(directory, limit=None):
    """The crops of a generate_crops.ts directory: uint8 [N, 64, 64, 3], int64 labels, the label lines."""
    with open(os.path.join(directory, "labels.jsonl")) as f:
        meta = [json.loads(line) for line in f if line.strip()]
    if limit is not None:
        meta = meta[:limit]
    cache = os.path.join(directory, "cache.npy")
    images = None
    if os.path.exists(cache) and limit is None:
        images = np.load(cache, mmap_mode=None)
        if images.shape[0] != len(meta):
            images = None
    if images is None:
        images = np.empty((len(meta), SIZE, SIZE, 3), np.uint8)
        for i, m in enumerate(meta):
            with Image.open(os.path.join(directory, m["file"])) as im:
                a = np.asarray(im.convert("RGB"))
            assert a.shape == (SIZE, SIZE, 3), (m["file"], a.shape)
            images[i] = a
        if limit is None:
            np.save(cache, images)
    labels = np.array([m["classId"] for m in meta], np.int64)
    for m in meta:
        assert LABELS[m["classId"]] == m["label"], m
    return images, labels, meta


def to_tensor(images):
    return torch.from_numpy(images).permute(0, 3, 1, 2).float().div_(255.0)


# --------------------------------------------------------------------------- model

class Net(nn.Module):
    def __init__(self, widths=(16, 24, 32, 48), stem_stride=2, dropout=0.1):
        super().__init__()
        layers = []
        cin = 3
        for i, w in enumerate(widths):
            # the first block halves the size with its stride (cheaper than a full-size map and a pool)
            stride = stem_stride if i == 0 else 1
            layers += [nn.Conv2d(cin, w, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(w),
                       nn.ReLU(inplace=True)]
            if stride == 1:
                layers.append(nn.MaxPool2d(2))
            cin = w
        self.features = nn.Sequential(*layers)
        side = SIZE >> len(widths)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(cin * side * side, NC)

    def forward(self, x):
        x = self.features(x - 0.5)
        return self.fc(self.dropout(torch.flatten(x, 1)))


class Exported(nn.Module):
    """What model.onnx computes: class probabilities."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, images):
        return torch.softmax(self.net(images), dim=1)


def n_params(net):
    return sum(p.numel() for p in net.parameters())


# --------------------------------------------------------------------------- evaluation

def predict(net, images, batch=512):
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(images), batch):
            out.append(torch.softmax(net(to_tensor(images[i:i + batch])), dim=1))
    return torch.cat(out).numpy()


def boundary_distance(h):
    """Degrees from the hue to the nearest class boundary (30, 90, ..., 330)."""
    return 30 - abs(((h + 30) % 60) - 30)


def evaluate(net, images, labels, meta):
    """Accuracy, the confusion matrix (rows: true, columns: predicted) and a text report."""
    probs = predict(net, images)
    pred = probs.argmax(1)
    conf = np.zeros((NC, NC), np.int64)
    for t, p in zip(labels, pred):
        conf[t, p] += 1
    acc = float((pred == labels).mean())
    seeds = [m["seed"] for m in meta]
    lines = [f"held-out crops: {len(labels)} (objects of scenes {min(seeds)}-{max(seeds)})",
             f"accuracy: {acc:.4f} ({int((pred == labels).sum())}/{len(labels)})",
             "",
             "confusion (rows: true colour, columns: predicted):",
             "true \\ pred " + "".join(f"{c:>8}" for c in LABELS) + "   total  accuracy"]
    for i, c in enumerate(LABELS):
        total = int(conf[i].sum())
        lines.append(f"{c:<12}" + "".join(f"{v:>8}" for v in conf[i]) +
                     f"{total:>8}  {conf[i, i] / max(1, total):.4f}")
    # where the errors are: near a hue boundary (the classes are cuts of a continuous hue), by fill
    dist = np.array([boundary_distance(m["fill"]["h"]) for m in meta])
    chroma = np.array([m["fill"]["chroma"] for m in meta])
    ok = pred == labels
    lines.append("")

    def row(name, mask):
        n = int(mask.sum())
        if n:
            lines.append(f"{name:<44}{n:>6} crops  accuracy {ok[mask].mean():.4f}")

    row("hue within 5 deg of a class boundary", dist < 5)
    row("hue 5-10 deg from a boundary", (dist >= 5) & (dist < 10))
    row("hue 10 deg or more from a boundary", dist >= 10)
    row("chroma 0.25-0.4", chroma < 0.4)
    row("chroma 0.4 or more", chroma >= 0.4)
    for enc in ("png", "jpeg"):
        row(f"scene encoded as {enc}", np.array([m.get("encoding") == enc for m in meta]))
    for shape in sorted({m["shape"] for m in meta}):
        row(f"shape {shape}", np.array([m["shape"] == shape for m in meta]))
    return acc, conf, "\n".join(lines), probs


# --------------------------------------------------------------------------- training

def augment(x):
    """Random flips (per sample) and a 90-degree rotation (per batch): the colour stays."""
    n = x.shape[0]
    m = torch.rand(n) < 0.5
    x[m] = x[m].flip(3)
    m = torch.rand(n) < 0.5
    x[m] = x[m].flip(2)
    k = random.randint(0, 3)
    return torch.rot90(x, k, (2, 3)) if k else x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True, help="generate_crops.ts --split train directories")
    ap.add_argument("--eval", required=True, help="generate_crops.ts --split eval directory")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=float, default=18)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--time-budget", type=float, default=10, help="minutes; training stops early past it")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    os.makedirs(args.out, exist_ok=True)

    t0 = time.time()
    parts = [load_set(d) for d in args.data]
    images = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    train_seeds = {m["seed"] for p in parts for m in p[2]}
    ev_images, ev_labels, ev_meta = load_set(args.eval)
    ev_seeds = {m["seed"] for m in ev_meta}
    assert not (train_seeds & ev_seeds), "training and held-out scenes overlap"
    print(f"train: {len(labels)} crops from {len(train_seeds)} scenes "
          f"(seeds {min(train_seeds)}-{max(train_seeds)}), per class {np.bincount(labels, minlength=NC).tolist()}; "
          f"held-out: {len(ev_labels)} crops (seeds {min(ev_seeds)}-{max(ev_seeds)}); loaded in {time.time() - t0:.1f} s",
          flush=True)

    net = Net(**MODEL_CONFIG)
    print(f"parameters: {n_params(net)}", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps_per_epoch = len(labels) // args.batch
    total = int(args.epochs * steps_per_epoch)
    warm = steps_per_epoch
    x_all = torch.from_numpy(images)
    y_all = torch.from_numpy(labels)

    t_train = time.time()
    budget = args.time_budget * 60
    step = 0
    epoch = 0
    lr = 0.0
    stopped = ""
    while step < total and not stopped:
        net.train()
        order = torch.randperm(len(labels))
        seen = 0
        loss_sum = 0.0
        for i in range(0, len(order) - args.batch + 1, args.batch):
            if step >= total:
                break
            # the schedule follows max(step progress, time progress), so a slow machine ends on time
            progress = max(step / total, (time.time() - t_train) / budget)
            if progress >= 1:
                stopped = f" (time budget reached at step {step} of {total})"
                break
            lr = args.lr * min(1.0, (step + 1) / warm) * 0.5 * (1 + math.cos(math.pi * progress))
            for g in opt.param_groups:
                g["lr"] = lr
            idx = order[i:i + args.batch]
            x = augment(x_all[idx].permute(0, 3, 1, 2).float().div_(255.0))
            loss = F.cross_entropy(net(x), y_all[idx], label_smoothing=0.05)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            loss_sum += float(loss) * len(idx)
            seen += len(idx)
            step += 1
        epoch += 1
        acc, _, _, _ = evaluate(net, ev_images, ev_labels, ev_meta)
        print(f"epoch {epoch}: step {step}/{total}, loss {loss_sum / max(1, seen):.4f}, lr {lr:.2e}, "
              f"held-out accuracy {acc:.4f}, {time.time() - t_train:.0f} s", flush=True)

    print(f"trained {step} steps of {args.batch} ({step * args.batch / len(labels):.2f} epochs) in "
          f"{(time.time() - t_train) / 60:.1f} min{stopped}", flush=True)
    acc, conf, report, _ = evaluate(net, ev_images, ev_labels, ev_meta)
    print(report, flush=True)
    torch.save({"model": net.state_dict(), "config": MODEL_CONFIG, "labels": LABELS, "steps": step,
                "train_crops": int(len(labels)),
                "train_seeds": [int(min(train_seeds)), int(max(train_seeds))]},
               os.path.join(args.out, "last.pt"))
    print("saved", os.path.join(args.out, "last.pt"))


if __name__ == "__main__":
    main()
