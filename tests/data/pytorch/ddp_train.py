# A stand-in for a user's own PyTorch DDP training script, written for sweep's tests (not part of sweep).
#
# It is written the way one would write it for torchrun: the process group comes from the environment
# (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, LOCAL_RANK), and it prints in its own format, not in
# sweep's metric-line protocol. A small MLP learns a fixed random "teacher" function on synthetic data,
# on the CPU with the gloo backend, in a few seconds.
#
#   RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 LOCAL_RANK=0 python3 ddp_train.py
#
# Output: one line per rank (what the environment gave it), then from rank 0 one line per epoch,
#   epoch 2/3 | loss 0.5123 | 1234.5 samples/s | world 4
# the final loss, and whether every rank ended with the same parameters.
import argparse
import datetime
import os
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def parse_args():
    p = argparse.ArgumentParser(description="toy DDP training")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--samples", type=int, default=2048, help="size of the synthetic dataset")
    p.add_argument("--batch-size", type=int, default=32, help="per rank")
    p.add_argument("--features", type=int, default=16)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1234)
    return p.parse_args()


def make_dataset(n, features, seed):
    # Same data on every rank: the sampler decides who sees which samples.
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, features, generator=g)
    w = torch.randn(features, 1, generator=g) / features ** 0.5
    y = torch.tanh(3 * x @ w) + 0.05 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def param_checksum(model):
    # Position-weighted, so that the same numbers in other places do not give the same sum.
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()]).double()
    return (flat * torch.arange(1, flat.numel() + 1, dtype=torch.float64)).sum()


def main():
    args = parse_args()
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    local_world_size = os.environ.get("LOCAL_WORLD_SIZE", "?")
    node_rank = os.environ.get("NODE_RANK", os.environ.get("GROUP_RANK", "?"))
    master = "{}:{}".format(os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])

    dist.init_process_group(backend="gloo", timeout=datetime.timedelta(seconds=60))
    assert dist.get_rank() == rank and dist.get_world_size() == world_size
    print("rank {}/{} local_rank {}/{} node {} master {}".format(
        rank, world_size, local_rank, local_world_size, node_rank, master), flush=True)

    # Different initial weights on every rank: DDP must broadcast rank 0's, or the check at the end fails.
    torch.manual_seed(args.seed + rank)
    model = DDP(nn.Sequential(nn.Linear(args.features, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loss_fn = nn.MSELoss()

    dataset = make_dataset(args.samples, args.features, args.seed)
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=args.seed)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, drop_last=True)

    steps = 0
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        sampler.set_epoch(epoch)
        t0 = time.perf_counter()
        totals = torch.zeros(2, dtype=torch.float64)  # loss sum, samples
        for x, y in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            totals += torch.tensor([loss.item() * len(x), len(x)], dtype=torch.float64)
            steps += 1
        dist.all_reduce(totals)
        elapsed = time.perf_counter() - t0
        if rank == 0:
            print("epoch {}/{} | loss {:.4f} | {:.1f} samples/s | world {}".format(
                epoch, args.epochs, totals[0].item() / totals[1].item(), totals[1].item() / elapsed, world_size),
                flush=True)
    epoch_loss = totals[0].item() / totals[1].item()

    checksum = param_checksum(model.module)
    lowest, highest = checksum.clone(), checksum.clone()
    dist.all_reduce(lowest, op=dist.ReduceOp.MIN)
    dist.all_reduce(highest, op=dist.ReduceOp.MAX)
    if rank == 0:
        print("final loss {:.4f} after {} steps in {:.1f} s (world {})".format(
            epoch_loss, steps, time.perf_counter() - start, world_size), flush=True)
        print("params in sync: {} (checksum {:.6f})".format(bool(lowest == highest), checksum.item()), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
