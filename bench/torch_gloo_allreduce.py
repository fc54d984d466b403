#!/usr/bin/env python3
"""The peer of bench/collbench_gloo_torch: PyTorch's own Gloo all-reduce (torch.distributed).

One rank per process; RANK and WORLD_SIZE come from the environment, the ranks meet through a
FileStore at the path given. Times `--iters` in-place all_reduce calls of an fp32 tensor of `--bytes`
after `--warmup` untimed ones and a barrier, like collbench: time per iteration is each rank's mean,
averaged over the ranks; busbw = 2(n-1)/n * bytes / time. Rank 0 prints one line:
  torch_gloo_allreduce bytes=<B> ranks=<n> time_us=<t> busbw=<GB/s>
Usage: RANK=r WORLD_SIZE=n torch_gloo_allreduce.py --store PATH --bytes B [--warmup W] [--iters N]
"""
import argparse
import os
import time

import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", required=True, help="FileStore path shared by all ranks")
    parser.add_argument("--bytes", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    args = parser.parse_args()

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    torch.set_num_threads(1)
    store = dist.FileStore(args.store, world)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world)

    # Ones double on every in-place sum over 2 ranks: after 30 calls they are 2^30, far from fp32's limit.
    tensor = torch.ones(args.bytes // 4, dtype=torch.float32)
    for _ in range(args.warmup):
        dist.all_reduce(tensor)
    dist.barrier()
    start = time.perf_counter()
    for _ in range(args.iters):
        dist.all_reduce(tensor)
    elapsed = time.perf_counter() - start

    # Check (untimed): every element holds world^(warmup+iters).
    expected = float(world) ** (args.warmup + args.iters)
    wrong = int((tensor != expected).sum().item())

    per_iter = torch.tensor([elapsed / args.iters, float(wrong)], dtype=torch.float64)
    dist.all_reduce(per_iter)
    seconds = per_iter[0].item() / world
    bytes_ = tensor.numel() * 4
    busbw = 2 * (world - 1) / world * bytes_ / seconds / 1e9
    if rank == 0:
        print(f"torch_gloo_allreduce bytes={bytes_} ranks={world} time_us={seconds * 1e6:.1f} "
              f"busbw={busbw:.4f} wrong={int(per_iter[1].item())} torch={torch.__version__}", flush=True)
    dist.destroy_process_group()
    return 0 if per_iter[1].item() == 0 else 3


if __name__ == "__main__":
    raise SystemExit(main())
