"""One network between two: the weights of a model and of its own fine-tune, mixed in a chosen share.

A fine-tune of a shipped classifier on one new scene folder gains on that folder's look and loses some of
what the earlier rounds taught it. Both networks lie in one basin (the fine-tune started from the other), so
their weights can be mixed linearly, `(1 - share) * base + share * tuned`, and the mix often keeps most of
both gains (WiSE-FT, Wortsman et al. 2022). The result is one network of the same size and speed: a
checkpoint that `datasets.export_onnx --classifier` exports like any other.

Example: .venv/bin/python -m datasets.blend_weights --base runs/init_v14/classifier.pt \
  --tuned runs/round_r35/epoch2.pt --share 0.5 --out runs/blend_r50.pt
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from datasets.export_onnx import load_state


def blend_states(
    base: dict[str, torch.Tensor], tuned: dict[str, torch.Tensor], share: float
) -> dict[str, torch.Tensor]:
    """`(1 - share) * base + share * tuned` for every floating-point tensor; counters (integer tensors,
    such as BatchNorm's batches seen) are taken from `tuned`. Both must hold the same names and shapes."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share {share} is not between 0 and 1")
    if base.keys() != tuned.keys():
        only = sorted(set(base) ^ set(tuned))
        raise ValueError(f"the two networks differ in their layers: {', '.join(only[:5])}")
    mixed: dict[str, torch.Tensor] = {}
    for name, a in base.items():
        b = tuned[name]
        if a.shape != b.shape:
            raise ValueError(f"{name}: shape {tuple(a.shape)} against {tuple(b.shape)}")
        if a.is_floating_point():
            mixed[name] = torch.lerp(a.float(), b.float(), share).to(a.dtype)
        else:
            mixed[name] = b.clone()
    return mixed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", required=True, help="checkpoint the fine-tune started from")
    parser.add_argument("--tuned", required=True, help="the fine-tuned checkpoint")
    parser.add_argument("--share", type=float, required=True, help="weight of the fine-tune, 0-1")
    parser.add_argument("--out", required=True, help="checkpoint to write (training args of --tuned)")
    args = parser.parse_args(argv)
    for path in (args.base, args.tuned):
        if not Path(path).is_file():
            raise SystemExit(f"{path}: no such checkpoint")
    base, _ = load_state(Path(args.base))
    tuned, tuned_args = load_state(Path(args.tuned))
    try:
        model = blend_states(base, tuned, args.share)
    except ValueError as err:
        raise SystemExit(f"cannot blend {args.base} and {args.tuned}: {err}") from None
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    note = {"base": args.base, "tuned": args.tuned, "share": args.share}
    torch.save({"model": model, "args": tuned_args, "blend": note}, out)
    print(f"wrote {out}: {1 - args.share:.2f} x {args.base} + {args.share:.2f} x {args.tuned}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
