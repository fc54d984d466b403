#!/usr/bin/env python3
"""The peer of bench/trainbench_ddp: the same GPT-2 as trainbench, trained by PyTorch's
DistributedDataParallel over Gloo (torch.distributed), one rank per process.

The model matches trainbench's shapes and arithmetic: token and position embeddings, pre-norm blocks
(qkv and fc column linears with bias, proj and fc2 with bias), causal softmax attention, tanh GELU,
final norm, output head tied to the token embedding (bench/torch_ddp_gpt_cuda.py trains it on GPUs); AdamW (lr 1e-3, no weight decay); DDP buckets of
25 MiB like trainbench's default. Data: random tokens (the cost does not depend on them). Each step is
timed like trainbench's (zero_grad, forward, backward with DDP's all-reduce, optimizer step); the
first --warmup steps are left out. Rank 0 prints one line:
  torch_ddp_gpt ranks=<n> params=<N> step_s=<mean> samples_per_s=<n * batch / step_s>
Usage: RANK=r WORLD_SIZE=n torch_ddp_gpt.py --store PATH [--layers L --width C --heads H --seq T
       --vocab V --batch B --steps S --warmup W]
"""
import argparse
import math
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.fc2 = nn.Linear(4 * width, width)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, c // self.heads).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        if hasattr(F, "scaled_dot_product_attention"):  # torch 2, as trainbench on libtorch 2
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
            causal = torch.ones(t, t, dtype=torch.bool).triu(1)
            y = att.masked_fill(causal, float("-inf")).softmax(-1) @ v
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.fc2(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Gpt(nn.Module):
    def __init__(self, layers, width, heads, seq, vocab):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.wpe = nn.Embedding(seq, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.lnf = nn.LayerNorm(width)

    def forward(self, tokens):
        x = self.wte(tokens) + self.wpe.weight[: tokens.size(1)]
        for block in self.blocks:
            x = block(x)
        return self.lnf(x) @ self.wte.weight.t()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--store", required=True, help="FileStore path shared by all ranks")
    for name, default in [("layers", 6), ("width", 384), ("heads", 6), ("seq", 64), ("vocab", 4096),
                          ("batch", 8), ("steps", 12), ("warmup", 2)]:
        p.add_argument("--" + name, type=int, default=default)
    a = p.parse_args()

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    torch.set_num_threads(1)
    torch.manual_seed(1234)
    model = Gpt(a.layers, a.width, a.heads, a.seq, a.vocab)
    if world > 1:
        dist.init_process_group("gloo", store=dist.FileStore(a.store, world), rank=rank, world_size=world)
        model = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=25)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
    params = sum(t.numel() for t in model.parameters())

    times = []
    for step in range(a.steps):
        tokens = torch.randint(0, a.vocab, (a.batch, a.seq + 1))
        start = time.perf_counter()
        optimizer.zero_grad()
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), tokens[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        times.append(time.perf_counter() - start)
    step_s = sum(times[a.warmup:]) / (a.steps - a.warmup)
    if world > 1:  # the slowest rank's mean, as trainbench reports
        t = torch.tensor([step_s], dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        step_s = t.item()
    if rank == 0:
        print(f"torch_ddp_gpt ranks={world} params={params} step_s={step_s:.6f} "
              f"samples_per_s={world * a.batch / step_s:.4f}")
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
