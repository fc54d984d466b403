#!/usr/bin/env python3
"""The peer of trainbench's data-parallel GPT on GPUs in scripts/gpu-check: bench/torch_ddp_gpt.py's
model (trainbench's GPT in PyTorch, causal scaled_dot_product_attention) trained by PyTorch DDP over
NCCL, one rank per GPU, started by torchrun.

Eager mode, as trainbench, unless --compile (torch.compile of the DDP module: PyTorch's fused kernels,
the reference for what the GPU can reach). --dtype bf16 is torch.autocast("cuda", torch.bfloat16)
with fp32 weights, as trainbench; AdamW (lr 1e-3, no weight decay), PyTorch's default implementation
for CUDA tensors (multi-tensor), or its fused kernel with --fused-adamw (as trainbench on libtorch 2). DDP all-reduces fp32 gradients in 25 MiB buckets during backward, as trainbench's
default. Each step's time is two CUDA events around zero_grad, forward, backward and the optimizer
step; the first --warmup steps are left out; the slowest rank's mean counts, as in trainbench. Rank 0
prints one JSON line:
  {"tokens_per_s": global tokens per mean step, "step_time_mean": s, "ranks": n, "batch": b,
   "seq": T, "parameters": N, "gpu_peak_memory_allocated": MiB, "torch": version, "device": name,
   "compile": bool, "fused_adamw": bool}
Usage: torchrun --standalone --nproc-per-node N torch_ddp_gpt_cuda.py [--layers 12 --width 768
       --heads 12 --seq 1024 --vocab 50257 --batch 16 --steps 30 --warmup 5 --dtype bf16 --compile
       --fused-adamw]
"""
import argparse
import json
import os
import statistics
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_ddp_gpt import Gpt  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    for name, default in [("layers", 12), ("width", 768), ("heads", 12), ("seq", 1024), ("vocab", 50257),
                          ("batch", 16), ("steps", 30), ("warmup", 5)]:
        p.add_argument("--" + name, type=int, default=default)
    p.add_argument("--dtype", choices=("bf16", "fp32"), default="bf16")
    p.add_argument("--compile", action="store_true", help="torch.compile the DDP module (compiled in the warm-up)")
    p.add_argument("--fused-adamw", action="store_true", help="AdamW(fused=True)")
    a = p.parse_args()

    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(1234)
    model = Gpt(a.layers, a.width, a.heads, a.seq, a.vocab).cuda()
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local_rank], bucket_cap_mb=25)
    optimizer = torch.optim.AdamW(ddp.parameters(), lr=1e-3, weight_decay=0.0, fused=a.fused_adamw or None)
    if a.compile:
        ddp = torch.compile(ddp)

    times = []
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(a.steps):
        tokens = torch.randint(0, a.vocab, (a.batch, a.seq + 1), device="cuda")
        start.record()
        optimizer.zero_grad()
        with torch.autocast("cuda", torch.bfloat16, enabled=a.dtype == "bf16"):
            logits = ddp(tokens[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, a.vocab), tokens[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    step_s = torch.tensor([statistics.fmean(times[a.warmup:])], dtype=torch.float64, device="cuda")
    dist.all_reduce(step_s, op=dist.ReduceOp.MAX)
    if rank == 0:
        print(json.dumps({
            "tokens_per_s": world * a.batch * a.seq / step_s.item(), "step_time_mean": step_s.item(), "ranks": world,
            "batch": a.batch, "seq": a.seq, "parameters": sum(t.numel() for t in model.parameters()),
            "gpu_peak_memory_allocated": torch.cuda.max_memory_allocated() / 2**20, "torch": torch.__version__,
            "device": torch.cuda.get_device_name(), "compile": a.compile, "fused_adamw": a.fused_adamw}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
