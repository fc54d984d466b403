#!/usr/bin/env python3
"""The peer of collbench's nccl all-reduce in scripts/gpu-check: PyTorch's own NCCL all-reduce
(torch.distributed), one rank per GPU, started by torchrun.

For each size from --min-bytes to --max-bytes (x2 steps, fp32, at least one element), times --iters
in-place all_reduce calls after --warmup untimed ones and a barrier, between two CUDA events on the
current stream, as nccl-tests and collbench do: time per iteration is each rank's mean, averaged over
the ranks; busbw = 2(n-1)/n * bytes / time (0 on one rank). Then, untimed, one call on a tensor of ones
must give n in every element, exactly. Rank 0 prints one JSON line per size:
  {"size_bytes": B, "ranks": n, "time_us": t, "busbw": GB/s, "wrong": w, "torch": version}
Usage: torchrun --standalone --nproc-per-node N torch_nccl_allreduce.py [--min-bytes 8] [--max-bytes 1G]
"""
import argparse
import json
import os

import torch
import torch.distributed as dist

UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size_arg(text):
    digits = text.rstrip("KMG")
    return int(digits) * UNITS[text[len(digits):]]


def measure(size, world, warmup, iters):
    count = max(1, size // 4)
    # Summing ones grows them to n^(warmup+iters), far below fp32's limit for up to 16 ranks.
    tensor = torch.ones(count, dtype=torch.float32, device="cuda")
    for _ in range(warmup):
        dist.all_reduce(tensor)
    torch.cuda.synchronize()
    dist.barrier()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        dist.all_reduce(tensor)
    end.record()
    end.synchronize()
    tensor.fill_(1.0)
    dist.all_reduce(tensor)
    wrong = int((tensor != float(world)).sum().item())
    result = torch.tensor([start.elapsed_time(end) * 1e3 / iters, float(wrong)], dtype=torch.float64, device="cuda")
    dist.all_reduce(result)
    time_us = result[0].item() / world
    busbw = 2 * (world - 1) / world * count * 4 / (time_us * 1e-6) / 1e9
    return count * 4, time_us, busbw, int(result[1].item())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-bytes", type=size_arg, default=8)
    parser.add_argument("--max-bytes", type=size_arg, default=1 << 30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()

    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    wrong_total = 0
    size = args.min_bytes
    while size <= args.max_bytes:
        bytes_, time_us, busbw, wrong = measure(size, world, args.warmup, args.iters)
        wrong_total += wrong
        if rank == 0:
            print(json.dumps({"size_bytes": bytes_, "ranks": world, "time_us": time_us, "busbw": busbw,
                              "wrong": wrong, "torch": torch.__version__}), flush=True)
        size *= 2
    dist.destroy_process_group()
    return 0 if wrong_total == 0 else 3


if __name__ == "__main__":
    raise SystemExit(main())
