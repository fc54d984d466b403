#!/usr/bin/env python3
"""scripts/gpu-check's verdicts and table, from the logs it left in OUT.
Usage: gpu_check_table.py OUT GPUS C1 C2 C3 C4 C5 C1B C3B  (Cn: 0 when check n's programs exited
cleanly, 1 when one failed, skip when it did not run). Exits 1 when a check failed or a target was
missed."""
import json
import os
import re
import sys

out, gpus = sys.argv[1], int(sys.argv[2])
clean = dict(zip((1, 2, 3, 4, 5, "1b", "3b"), sys.argv[3:10]))


def metrics(name):
    """trainbench's or collbench's metric lines in OUT/NAME.0.log: {metric: {index: value}}, and the header."""
    found, header = {}, []
    path = os.path.join(out, name + ".0.log")
    if not os.path.exists(path):
        return found, header
    for line in open(path, errors="replace"):
        if line.startswith("{"):
            m = json.loads(line)
            found.setdefault(m["metric"], {})[m.get("index", 0)] = m["value"]
        elif line.startswith("#"):
            header.append(line.rstrip())
    return found, header


def value(found, metric, index=0):
    return found.get(metric, {}).get(index)


def losses(found):
    return [v for _, v in sorted(found.get("loss", {}).items())]


rows, failed = [], False


def verdict(check, ok, seen):
    global failed
    state = "SKIP" if ok is None else ("PASS" if ok else "FAIL")
    failed |= ok is False
    rows.append(f"| {check} | {state} | {seen} |")


# 1. collbench nccl all-reduce against torch.distributed.
ours, torch_, wrong = {}, {}, 0
path = os.path.join(out, "collbench.0.log")
if os.path.exists(path):
    for line in open(path, errors="replace"):
        if line.startswith("{"):
            m = json.loads(line)
            if m["metric"] == "busbw": ours[m["tags"]["size_bytes"]] = m["value"]
            if m["metric"] == "wrong": wrong += m["value"]
tpath = os.path.join(out, "torch_allreduce.jsonl")
if os.path.exists(tpath):
    for line in open(tpath):
        m = json.loads(line)
        torch_[m["size_bytes"]] = m["busbw"]
        wrong += m["wrong"]
sizes = sorted(set(ours) & set(torch_))
missed = [s for s in sizes if gpus > 1 and s >= 64 << 20 and not (torch_[s] > 0 and ours[s] / torch_[s] >= 0.95)]
big = [s for s in sizes if s >= 64 << 20]
ratio = " ".join(f"{s >> 20} MiB {ours[s] / torch_[s]:.3f}" for s in big if torch_[s] > 0)
seen = f"{len(sizes)} sizes, {wrong} wrong elements"
seen += f"; busbw ratio {ratio}" if gpus > 1 else "; one GPU: busbw not measured (needs two or more GPUs)"
verdict("1. collbench nccl all-reduce vs torch.distributed", clean[1] == "0" and sizes and not wrong and not missed, seen)

# 1b. collbench over gloo on device buffers.
if clean["1b"] == "skip":
    verdict("1b. collbench gloo all-reduce of device buffers (host staging)", None, "gloo not in this build")
else:
    found, header = metrics("collbench_staged")
    staged_wrong = sum(found.get("wrong", {}).values())
    sizes = len(found.get("busbw", {}))
    device_line = next((h for h in header if "| device " in h), "")
    ok = clean["1b"] == "0" and sizes > 0 and staged_wrong == 0 and "through host memory" in device_line
    verdict("1b. collbench gloo all-reduce of device buffers (host staging)", ok,
            f"2 ranks, {sizes} sizes, {staged_wrong:.0f} wrong elements")

# 2. the same losses on the GPU as on the CPU.
cpu, cuda = losses(metrics("tiny_cpu")[0]), losses(metrics("tiny_cuda")[0])
if cpu and len(cpu) == len(cuda):
    worst = max(abs(a - b) / abs(a) for a, b in zip(cpu, cuda))
    ok = clean[2] == "0" and worst < 1e-3 and cuda[-1] < cuda[0]
    seen = f"{len(cpu)} steps, largest relative difference {worst:.2e}; loss {cuda[0]:.4f} -> {cuda[-1]:.4f}"
else:
    ok, seen = False, f"no loss curves to compare ({len(cpu)} on the CPU, {len(cuda)} on the GPU)"
verdict("2. trainbench --device cuda vs cpu (gpt2-tiny fp32)", ok, seen)

# 3. host staging over gloo.
if clean[3] == "skip":
    verdict("3. trainbench over gloo on the GPU (host staging)", None, "gloo not in this build")
else:
    found, header = metrics("staged")
    hashes = {re.sub(r".*parameters hash ", "", h) for h in header if "parameters hash" in h}
    curve = losses(found)
    ok = clean[3] == "0" and len(hashes) == 1 and len(curve) > 1 and curve[-1] < curve[0]
    seen = f"{len(hashes)} distinct parameter hash(es) over 2 ranks" + (f"; loss {curve[0]:.4f} -> {curve[-1]:.4f}" if curve else "")
    verdict("3. trainbench over gloo on the GPU (host staging)", ok, seen)

# 3b. tensor and pipeline parallelism on the GPU against one rank.
if clean["3b"] == "skip":
    verdict("3b. trainbench --tp 2 and --pp 2 on the GPU (gloo)", None, "gloo not in this build")
else:
    one = losses(metrics("tiny_one")[0])
    worst, seen = 0.0, []
    for name in ("tp", "pp"):
        curve = losses(metrics("tiny_" + name)[0])
        if one and len(curve) == len(one):
            d = max(abs(a - b) / abs(a) for a, b in zip(one, curve))
            worst = max(worst, d)
            seen.append(f"--{name} 2: largest relative difference {d:.2e}")
        else:
            worst = float("inf")
            seen.append(f"--{name} 2: {len(curve)} losses against {len(one)}")
    ok = clean["3b"] == "0" and worst < 1e-4 and len(one) > 1 and one[-1] < one[0]
    verdict("3b. trainbench --tp 2 and --pp 2 on the GPU (gloo)", ok, "; ".join(seen))

# 4. DP tokens/s against DDP, and MFU.
found, header = metrics("gpt2")
ours_tps, mfu = value(found, "tokens_per_s"), value(found, "mfu")
device = next((re.search(r"device ([^|]*)", h).group(1).strip() for h in header if "| device " in h), "?")
def ddp_line(name):
    """The JSON line bench/torch_ddp_gpt_cuda.py left in OUT/NAME.jsonl, {} when none."""
    found, path = {}, os.path.join(out, name + ".jsonl")
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("{"): found = json.loads(line)
    return found


ddp = ddp_line("torch_ddp")
if ours_tps and ddp.get("tokens_per_s"):
    r = ours_tps / ddp["tokens_per_s"]
    hopper = "H100" in device or "H200" in device
    ok = clean[4] == "0" and r >= 1.0 and (mfu is None or not hopper or mfu >= 0.40)
    seen = (f"{device}, {gpus} rank(s): trainbench {ours_tps:,.0f} tokens/s, DDP {ddp['tokens_per_s']:,.0f} "
            f"(ratio {r:.3f}); MFU ")
    seen += f"{mfu:.1%} (DDP's by the same count: {mfu / r:.1%})" if mfu is not None else "unknown"
    for name, what in (("torch_ddp_fused", "DDP with fused AdamW"), ("torch_ddp_compiled", "DDP torch.compile + fused AdamW")):
        other = ddp_line(name).get("tokens_per_s")
        if other and mfu is not None:
            seen += f"; {what}: {other:,.0f} tokens/s (ratio {ours_tps / other:.3f}, MFU {mfu * other / ours_tps:.1%})"
        else:
            seen += f"; {what}: not measured"
    memory = value(found, "gpu_peak_memory_allocated")
    if memory is not None:
        seen += f"; GPU memory {memory:,.0f} MiB vs DDP {ddp.get('gpu_peak_memory_allocated', 0):,.0f} MiB"
else:
    ok, seen = False, f"no figures (trainbench {ours_tps}, DDP {ddp.get('tokens_per_s')})"
verdict("4. trainbench DP gpt2 bf16 vs PyTorch DDP; MFU", ok, seen)

# For reference: trainbench and DDP with the vocabulary padded to 50,304.
found, _ = metrics("gpt2_padded")
padded, padded_ddp = value(found, "tokens_per_s"), ddp_line("torch_ddp_padded").get("tokens_per_s")
if padded and padded_ddp:
    seen = (f"trainbench {padded:,.0f} tokens/s, MFU {value(found, 'mfu') or 0:.1%}; DDP {padded_ddp:,.0f} "
            f"(ratio {padded / padded_ddp:.3f})")
else:
    seen = f"not measured (trainbench {padded}, DDP {padded_ddp})"
rows.append(f"| 4b. for reference: vocabulary padded to 50,304 | - | {seen} |")

# 5. ResNet-18.
found, _ = metrics("resnet")
curve = losses(found)
ok = clean[5] == "0" and len(curve) > 1 and curve[-1] < curve[0]
seen = f"{value(found, 'images_per_s') or 0:,.0f} images/s" + (f"; loss {curve[0]:.3f} -> {curve[-1]:.3f}" if curve else "")
verdict("5. trainbench ResNet-18 on the GPU", ok, seen)


# 6. telemetry through NVML: sweep-telemetry's files (format 1, docs/telemetry.md) around checks 1 and 4.
def telemetry(name):
    """{gpu index: [(t, energy_j, power_w, util_pct)]} and the nvml source line of OUT/telemetry-NAME."""
    series, nvml = {}, "no file"
    path = os.path.join(out, "telemetry-" + name)
    if not os.path.exists(path):
        return series, nvml
    for line in open(path, errors="replace"):
        f = line.split()
        if f[:2] == ["source", "nvml"]:
            nvml = " ".join(f[2:])
        elif f and f[0] == "gpu" and len(f) == 11:
            num = lambda w: None if w == "-" else float(w)
            series.setdefault(int(f[2]), []).append((float(f[1]), num(f[3]), num(f[4]), num(f[5])))
    return series, nvml


seen, ok = [], True
for name in ("collbench", "gpt2"):
    series, nvml = telemetry(name)
    if not series:
        ok, seen = False, seen + [f"{name}: no GPU samples (nvml {nvml})"]
        continue
    for gpu, samples in sorted(series.items()):
        powered = [(t, p) for t, _, p, _ in samples if p is not None]
        integral = sum((t1 - t0) * (p0 + p1) / 2 for (t0, p0), (t1, p1) in zip(powered, powered[1:]))
        counted = [e for _, e, _, _ in samples if e is not None]
        counter = counted[-1] - counted[0] if len(counted) > 1 else None
        utils = [u for _, _, _, u in samples if u is not None]
        util = sum(utils) / len(utils) if utils else None
        close = counter is not None and integral > 0 and abs(counter / integral - 1) <= 0.05
        busy = name != "gpt2" or (util or 0) > 0
        ok &= close and busy
        ratio = f"{counter / integral:.3f}" if counter is not None and integral > 0 else "n/a"
        seen.append(f"{name} GPU {gpu}: counter {counter if counter is None else round(counter, 1)} J, "
                    f"power integral {integral:.1f} J (ratio {ratio}), util {util if util is None else round(util, 1)}%")
verdict("6. telemetry through NVML: energy counter vs power integral (5%), utilisation while training", ok,
        "; ".join(seen))

print("| check | verdict | seen |")
print("|---|---|---|")
print("\n".join(rows))
sys.exit(1 if failed else 0)
