#!/usr/bin/env python3
"""Keeps one GPU architecture's kernels in a CUDA shared library.

    python3 bench/gpu/prune-fatbin.py IN.so OUT.so SM      (e.g. SM = 90 for H100/H200)

A CUDA library carries a fatbin per compilation unit, each holding the same
kernels compiled for several architectures (sm_75 ... sm_120): ONNX Runtime's
CUDA provider is 230 MB, most of it kernels the GPU at hand never loads. This
zeroes the payload of every cubin and PTX entry of the other architectures, in
fatbins that hold an sm_SM cubin; offsets and sizes stay as they were, so the
library links and loads as before and the runtime picks the sm_SM cubin, and
the zeroed bytes compress to nothing (230 MB to 39 MB with xz for sm_90). The
output runs on sm_SM GPUs only. Fatbins without an sm_SM cubin are left whole
and listed.

Fatbin layout: a 16-byte header (magic 0xBA55ED50, version 1, header size,
size of what follows), then entries, each a header (kind 1 PTX / 2 cubin,
header size, payload size, architecture at byte 28) and its payload.
"""
import struct
import sys

MAGIC = struct.pack('<I', 0xBA55ED50)


def prune(data: bytearray, keep: int) -> int:
    zeroed = pos = 0
    while (start := data.find(MAGIC, pos)) >= 0:
        _, version, header, size = struct.unpack_from('<IHHQ', data, start)
        if version != 1 or header != 16 or size > len(data):
            pos = start + 4  # the magic's bytes inside something else
            continue
        entry, end, entries = start + header, start + header + size, []
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from('<HHIQ', data, entry)
            (arch,) = struct.unpack_from('<I', data, entry + 28)
            entries.append((kind, arch, entry + entry_header, payload))
            entry += entry_header + payload
        if any(kind == 2 and arch == keep for kind, arch, _, _ in entries):
            for kind, arch, offset, payload in entries:
                if not (kind == 2 and arch == keep):
                    data[offset:offset + payload] = bytes(payload)
                    zeroed += payload
        else:
            print('left whole (no sm_%d cubin):' % keep, [(kind, arch, payload) for kind, arch, _, payload in entries])
        pos = end
    return zeroed


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, target, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(source, 'rb').read())
    zeroed = prune(data, keep)
    open(target, 'wb').write(data)
    print('zeroed %.1f MiB of %.1f MiB' % (zeroed / 2**20, len(data) / 2**20))


if __name__ == '__main__':
    main()
