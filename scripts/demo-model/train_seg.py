"""Trains the bundled demo segmentation model (models/demo-seg/model.onnx) from scratch on synthetic scenes.

Run with Debian's Python (torch 1.13, CPU); see README.md ("Segmentation model") for the whole pipeline:

    nice -n 19 node --import tsx scripts/demo-model/generate.ts --out /tmp/demo-seg/train0 \
        --seed-start 1000000 --count 3000 --format mixed --resize-to 320x320 --masks
    OMP_WAIT_POLICY=PASSIVE nice -n 19 /usr/bin/python3 scripts/demo-model/train_seg.py \
        --data /tmp/demo-seg/train0 --out /tmp/demo-seg/run1 --time-budget 50
    /usr/bin/python3 scripts/demo-model/export_seg.py --ckpt /tmp/demo-seg/run1/best.pt --out models/demo-seg

The shipped model: 811 steps of 16 images (3,000 scenes) in 50 min wall on 2 shared cores.

What it adds to the detector of train.py (same backbone, neck, heads, assignment and box/class losses):
- a mask-coefficient branch per level (3x3 conv + 1x1 conv -> NM coefficients per candidate);
- a prototype branch (YOLOv8-seg's Proto, with a skip from the backbone's stride-4 features for sharper
  edges): neck P3 (stride 8) -> 3x3 conv -> 2x nearest upsample -> concat backbone stride 4 -> 3x3 conv ->
  1x1 conv -> NM prototypes at a quarter of the input (80x80 for 320x320);
- mask loss as in YOLOv8-seg: for every positive candidate (TAL), BCE between sigmoid(coefficients .
  prototypes) and its ground-truth object's visible mask (generate.ts --masks, area-averaged to the
  prototype grid, so edge cells get fractional targets), averaged over the cells of the ground-truth box
  (grown by one cell so the model also learns to say "no" just outside it), averaged over positives,
  weight 7.5 (YOLOv8's box gain, which Ultralytics also uses for masks).
The schedule is train.py's (AdamW, warm-up, cosine, EMA, 256-then-320 phases, colour jitter, flips);
--time-budget drives the schedule so the run ends on time.
"""

import argparse
import json
import math
import os
import random
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402
from train import Conv, INPUT_H, INPUT_W, PAD_VALUE, REG_MAX, STRIDES, NC  # noqa: E402

SEG_CONFIG = {**T.MODEL_CONFIG, "nm": 32, "proto_ch": 32, "coef_ch": 24}
MASK_GAIN = 7.5


class SegNet(T.Net):
    def __init__(self, widths=(16, 32, 64, 96, 128), depths=(1, 1, 2, 1), head_ch=32, nm=32, proto_ch=32,
                 coef_ch=24):
        super().__init__(widths, depths, head_ch)
        w0, w1, w2, w3, w4 = widths
        self.nm = nm
        self.coef = nn.ModuleList([nn.Sequential(Conv(c, coef_ch, 3), nn.Conv2d(coef_ch, nm, 1)) for c in (w2, w3, w4)])
        self.proto_in = Conv(w2, proto_ch, 3)                  # neck P3, stride 8
        self.proto_mid = Conv(proto_ch + w1, proto_ch, 3)      # stride 4, with the backbone's stride-4 features
        self.proto_out = nn.Conv2d(proto_ch, nm, 1)

    def forward(self, x):
        """-> (list of (box_dist, cls_logits) per level, list of coefficients [B,NM,H,W] per level,
        prototypes [B,NM,H/4,W/4])."""
        p2 = self.s1(self.stem(x))
        p3 = self.s2(p2)
        p4 = self.s3(p3)
        p5 = self.s4(p4)
        n4 = self.n4(torch.cat([self.up(p5), p4], 1))
        o3 = self.n3(torch.cat([self.up(n4), p3], 1))
        o4 = self.o4(torch.cat([self.d3(o3), n4], 1))
        o5 = self.o5(torch.cat([self.d4(o4), p5], 1))
        feats = (o3, o4, o5)
        det = [h(f) for h, f in zip(self.heads, feats)]
        coefs = [c(f) for c, f in zip(self.coef, feats)]
        protos = self.proto_out(self.proto_mid(torch.cat([self.up(self.proto_in(o3)), p2], 1)))
        return det, coefs, protos


class SegExported(nn.Module):
    """-> output0 [B, 4+C+NM, N] (YOLOv8-seg layout: cx, cy, w, h in input pixels, sigmoid class scores, mask
    coefficients) and output1 [B, NM, H/4, W/4] (prototypes), as Ultralytics' YOLOv8-seg exports."""

    def __init__(self, net, det_only=False):
        super().__init__()
        self.net = net
        self.det_only = det_only
        anchors, strides = T.make_anchors([(INPUT_H // s, INPUT_W // s) for s in STRIDES])
        self.register_buffer("anchors", anchors.t().unsqueeze(0))
        self.register_buffer("strides", strides.t().unsqueeze(0))
        self.register_buffer("proj", torch.arange(REG_MAX, dtype=torch.float32).view(1, REG_MAX, 1, 1))

    def forward(self, images):
        det, coefs, protos = self.net(images)
        dist = torch.cat([b.flatten(2) for b, _ in det], 2)
        logits = torch.cat([c.flatten(2) for _, c in det], 2)
        coef = torch.cat([c.flatten(2) for c in coefs], 2)
        n = dist.shape[2]
        d = dist.view(-1, 4, REG_MAX, n).softmax(2)
        ltrb = (d * self.proj.view(1, 1, REG_MAX, 1)).sum(2)
        lt, rb = ltrb[:, :2], ltrb[:, 2:]
        xy = self.anchors + (rb - lt) / 2 * self.strides
        wh = (lt + rb) * self.strides
        boxes_scores = torch.cat([xy, wh, logits.sigmoid()], 1)
        if self.det_only:
            return boxes_scores
        return torch.cat([boxes_scores, coef], 1), protos


def seg_loss(outs, gl, gb, gm, gmasks, anchors, strides, input_size):
    """Detection loss (train.py) + YOLOv8-seg mask loss. gb in input pixels (input_size x input_size);
    gmasks [B,M,Hp,Wp] soft targets on the prototype grid."""
    det, coefs, protos = outs
    dist, logits = T.flatten_outputs(det)
    coef = torch.cat([c.flatten(2) for c in coefs], 2).transpose(1, 2)          # [B,N,NM]
    b, n, _ = dist.shape
    ltrb = T.dist_to_ltrb(dist)
    pboxes = torch.cat([anchors - ltrb[..., :2] * strides, anchors + ltrb[..., 2:] * strides], -1)
    tb, ts, fg, gi = T.tal_assign(logits.detach().sigmoid(), pboxes.detach(), anchors, gl, gb, gm,
                                  return_gt_idx=True)
    ts_sum = ts.sum().clamp(min=1)
    loss_cls = F.binary_cross_entropy_with_logits(logits, ts, reduction="sum") / ts_sum
    if fg.any():
        w = ts.sum(-1)[fg]
        loss_box = ((1 - T.ciou(pboxes[fg], tb[fg])) * w).sum() / ts_sum
        st = strides.expand(b, n, 1)[fg]
        a = anchors.expand(b, n, 2)[fg]
        t = torch.cat([a - tb[fg][:, :2], tb[fg][:, 2:] - a], -1) / st
        t = t.clamp(0, REG_MAX - 1 - 0.01)
        tl = t.long()
        wr = t - tl
        pd = dist[fg].view(-1, 4, REG_MAX)
        lp = F.log_softmax(pd, -1)
        dfl = -(lp.gather(-1, tl[..., None]).squeeze(-1) * (1 - wr) + lp.gather(-1, (tl + 1)[..., None]).squeeze(-1) * wr)
        loss_dfl = (dfl.mean(-1) * w).sum() / ts_sum
        # masks
        nm, hp, wp = protos.shape[1:]
        cell = input_size / wp
        cols = torch.arange(wp, dtype=torch.float32)
        rows = torch.arange(hp, dtype=torch.float32)
        losses = []
        for j in range(b):
            f = fg[j]
            if not f.any():
                continue
            g = gi[j][f]                                                      # [P]
            pm = coef[j][f] @ protos[j].view(nm, -1)                          # [P, Hp*Wp]
            target = gmasks[j, g].view(len(g), -1)                            # [P, Hp*Wp]
            bx = gb[j, g] / cell                                              # gt boxes in cells
            inx = (cols[None] >= bx[:, :1] - 1) & (cols[None] < bx[:, 2:3] + 1)   # one cell of margin
            iny = (rows[None] >= bx[:, 1:2] - 1) & (rows[None] < bx[:, 3:4] + 1)
            crop = (iny[:, :, None] & inx[:, None, :]).view(len(g), -1).float()
            bce = F.binary_cross_entropy_with_logits(pm, target, reduction="none")
            losses.append((bce * crop).sum(1) / crop.sum(1).clamp(min=1))
        loss_mask = torch.cat(losses).mean()
    else:
        loss_box = loss_dfl = loss_mask = logits.sum() * 0
    total = 7.5 * loss_box + 0.5 * loss_cls + 1.5 * loss_dfl + MASK_GAIN * loss_mask
    return total, (loss_box.item(), loss_cls.item(), loss_dfl.item(), loss_mask.item())


def load_masks(path, recs, cache):
    """Instance maps (generate.ts --masks, at the letterbox rectangle) -> uint8 [N,H,W] letterboxed, 0 = padding."""
    if cache and os.path.exists(cache):
        ids = np.load(cache)
        if ids.shape[0] == len(recs):
            return ids
    ids = np.zeros((len(recs), INPUT_H, INPUT_W), np.uint8)
    for i, r in enumerate(recs):
        rect = r["rect"]
        m = np.asarray(Image.open(os.path.join(path, r["mask"])))
        if m.ndim == 3:
            m = m[..., 0]
        assert m.shape == (rect["height"], rect["width"]), r["mask"]
        ids[i, rect["y"]:rect["y"] + rect["height"], rect["x"]:rect["x"] + rect["width"]] = m
    if cache:
        np.save(cache, ids)
    return ids


def soft_masks(ids, m, size):
    """uint8 [B,H,W] instance maps -> float [B,M,size,size]: the fraction of each cell that object k covers."""
    t = torch.from_numpy(ids)
    onehot = t[:, None] == torch.arange(1, m + 1, dtype=t.dtype).view(1, m, 1, 1)   # [B,M,H,W]
    return F.adaptive_avg_pool2d(onehot.float(), size)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, nargs="+", help="generate.ts --resize-to ... --masks output dir(s)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=float, default=20, help="upper bound; --time-budget normally ends the run")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--time-budget", type=float, default=0, help="minutes; 0 = none")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bench", type=int, default=0, help="only time this many steps")
    ap.add_argument("--small-size", type=int, default=256)
    ap.add_argument("--small-frac", type=float, default=0.5)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    os.makedirs(args.out, exist_ok=True)

    t_load = time.time()
    imgs_l, boxes, labels, rects_l, ids_l = [], [], [], [], []
    for d in args.data:
        im, bx, lb, rc = T.load_train_set(d, os.path.join(d, "cache.npy"))
        recs = T.read_labels(d)
        imgs_l.append(im)
        boxes += bx
        labels += lb
        rects_l.append(rc)
        ids_l.append(load_masks(d, recs, os.path.join(d, "masks.npy")))
    imgs = np.concatenate(imgs_l) if len(imgs_l) > 1 else imgs_l[0]
    ids = np.concatenate(ids_l) if len(ids_l) > 1 else ids_l[0]
    rects = np.concatenate(rects_l)
    del imgs_l, ids_l
    n = len(imgs)
    print(f"{n} training images ({sum(len(b) for b in boxes)} objects) loaded in {time.time() - t_load:.0f} s",
          flush=True)

    model = SegNet(**SEG_CONFIG)
    print(f"parameters: {sum(p.numel() for p in model.parameters()):,}", flush=True)
    anchors, strides = T.make_anchors([(INPUT_H // s, INPUT_W // s) for s in STRIDES])
    ss = args.small_size
    anchors_s, strides_s = T.make_anchors([(ss // s, ss // s) for s in STRIDES])
    decay, no_decay = [], []
    for mod in model.modules():
        for name, p in mod.named_parameters(recurse=False):
            (decay if name == "weight" and isinstance(mod, nn.Conv2d) else no_decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.999))
    ema = T.EMA(model)
    steps_per_epoch = n // args.batch
    total = int(args.epochs * steps_per_epoch) if not args.bench else args.bench
    warm = min(200, total // 10)
    budget = args.time_budget * 60
    print(f"at most {total} steps of {args.batch}; time budget {args.time_budget} min", flush=True)

    t0 = time.time()
    c0 = time.process_time()
    step = 0
    perm = rng.permutation(n)
    pos = 0
    keys = ("box", "cls", "dfl", "mask")
    log = dict.fromkeys(keys, 0.0)
    log_k = 0
    small_steps = 0
    model.train()
    while True:
        progress = step / total
        if budget:
            progress = max(progress, (time.time() - t0) / budget)
        if progress >= 1:
            break
        lr = args.lr * (step / warm if step < warm else 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress)))
        for g in opt.param_groups:
            g["lr"] = lr
        if pos + args.batch > n:
            perm = rng.permutation(n)
            pos = 0
        idx = np.sort(perm[pos:pos + args.batch])
        pos += args.batch
        x, gl, gb, gm, flips = T.make_batch(imgs, boxes, labels, rects, idx, rng, augment=True)
        bid = ids[idx].copy()
        for j in np.nonzero(flips)[0]:
            bid[j] = bid[j, :, ::-1].copy()
        m = gl.shape[1]
        small = progress < args.small_frac
        size = ss if small else INPUT_W
        gmasks = soft_masks(bid, m, size // 4)
        if small:
            small_steps += 1
            x = F.interpolate(x, size=(ss, ss), mode="bilinear", align_corners=False, antialias=True)
            loss, parts = seg_loss(model(x), gl, gb * (ss / INPUT_W), gm, gmasks, anchors_s, strides_s, ss)
        else:
            loss, parts = seg_loss(model(x), gl, gb, gm, gmasks, anchors, strides, INPUT_W)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        opt.step()
        ema.update(model)
        step += 1
        for k, v in zip(keys, parts):
            log[k] += v
        log_k += 1
        if step % 50 == 0 or args.bench:
            el = time.time() - t0
            print(f"step {step} ep {step / steps_per_epoch:.2f} lr {lr:.5f} "
                  + " ".join(f"{k} {log[k] / log_k:.3f}" for k in keys)
                  + f"  {el / 60:.1f} min ({1000 * el / step / args.batch:.0f} ms/img, "
                  f"cpu {(time.process_time() - c0) / 60:.1f} min)", flush=True)
            log = dict.fromkeys(keys, 0.0)
            log_k = 0
    train_s = time.time() - t0
    cpu_s = time.process_time() - c0
    print(f"training: {step} steps ({small_steps} at {ss}) in {train_s / 60:.1f} min wall, {cpu_s / 60:.1f} min CPU",
          flush=True)
    if args.bench:
        return
    torch.save({"model": ema.ema.state_dict(), "config": SEG_CONFIG, "labels": T.LABELS, "steps": step,
                "train_seconds": train_s, "args": vars(args)}, os.path.join(args.out, "best.pt"))
    with open(os.path.join(args.out, "result.json"), "w") as f:
        json.dump({"steps": step, "small_steps": small_steps, "train_minutes": round(train_s / 60, 1),
                   "cpu_minutes": round(cpu_s / 60, 1), "train_images": n}, f, indent=1)


if __name__ == "__main__":
    main()
