"""What a set profile (recognizer/set_profile.py) buys on artworks: for each artwork of a world-scene folder,
a profile is learnt from the truth boxes of its first scenes (as a player names the tiles of a corrected
photo), then the artwork's other scenes are read with and without it: the classifier alone on the truth
boxes (named right) and, with --full, the whole pipeline (tile F1, photos with every tile right).

Run it on held-out artworks for the honest figure (runs/world_heldout8); on the training artworks' tune
scenes (runs/world_tune8) it shows what a profile costs a set the classifier already reads.

    .venv/bin/python -m datasets.evaluate_profile runs/world_heldout8 --photos 1 3 [--full] [--json out.json]
    .venv/bin/python -m datasets.evaluate_profile runs/world_heldout8 --one-each 1 2

With --learnt-with OLD the profiles are learnt with the models in OLD and read with --models, as a club's
profile is after a model update that lists OLD's classifier in labels.json's profiles_from.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from datasets.evaluate import evaluate, load_recognizer
from datasets.evaluate_world import scene_kinds, write_report
from datasets.settings_flags import add_set_flag
from datasets.yolo import LABELS, Sample, read_folder
from recognizer.classifier import split_not_a_tile
from recognizer.imageio import load_image
from recognizer.pipeline import Recognizer
from recognizer.set_profile import SetProfile
from scoring.tiles import BACK


def by_artwork(folder: Path, kinds: dict[str, dict[str, str]]) -> dict[str, list[Sample]]:
    """The folder's scenes with tiles, by artwork, in file order."""
    out: dict[str, list[Sample]] = defaultdict(list)
    for sample in read_folder(folder):
        if len(sample.boxes):
            out[kinds.get(sample.image.stem, {}).get("artwork", "unknown")].append(sample)
    return dict(out)


def learn_photos(recognizer: Recognizer, samples: list[Sample]) -> SetProfile:
    """A profile from every truth box of `samples` (a player naming the tiles of whole photos)."""
    profile = recognizer.new_profile("evaluation")
    for sample in samples:
        image = load_image(sample.image)
        codes = [LABELS[int(i)] for i in sample.labels]
        profile = recognizer.learn(profile, image, sample.boxes, codes)
    return profile


def learn_one_each(recognizer: Recognizer, samples: list[Sample], shots: int) -> tuple[SetProfile, set[int]]:
    """A profile from the first `shots` tiles of each face met in `samples` (a player laying out the set
    face up once per shot; no face-down tiles), and the indices of the scenes it drew from."""
    profile = recognizer.new_profile("evaluation")
    count: dict[str, int] = defaultdict(int)
    used: set[int] = set()
    for k, sample in enumerate(samples):
        take = []
        for i, label in enumerate(sample.labels):
            code = LABELS[int(label)]
            if code != BACK and count[code] < shots:
                count[code] += 1
                take.append(i)
        if take:
            used.add(k)
            image = load_image(sample.image)
            boxes = sample.boxes[take]
            profile = recognizer.learn(profile, image, boxes, [LABELS[int(sample.labels[i])] for i in take])
        if len(count) == len(LABELS) - 1 and min(count.values()) >= shots:  # every face but "back"
            break
    return profile, used


def named_right(recognizer: Recognizer, samples: list[Sample]) -> tuple[int, int]:
    """Truth boxes of `samples` the classifier names right (test-time turns as the runtime), and all."""
    s = recognizer.settings
    right = total = 0
    for sample in samples:
        image = load_image(sample.image)
        boxes = sample.boxes * np.float32(image.scale)
        probs = recognizer.classifier.probabilities(
            image.rgb, boxes, s.turns, s.combine, s.square_band, s.flip_below
        )
        tiles, _ = split_not_a_tile(probs, recognizer.classifier.rejects)
        right += int((tiles.argmax(axis=1) == sample.labels).sum())
        total += len(sample.labels)
    return right, total


def measure(recognizer: Recognizer, profile: SetProfile, rest: list[Sample], full: bool) -> dict[str, Any]:
    """Named right (and with `full` the pipeline's figures) on `rest`, without and with `profile`."""
    with_profile = recognizer.with_profile(profile)
    out: dict[str, Any] = {
        "examples": len(profile.examples),
        "codes": len(profile.codes),
        "temperature": profile.temperature,
        "test_scenes": len(rest),
    }
    for name, r in (("without", recognizer), ("with", with_profile)):
        right, total = named_right(r, rest)
        out[f"named_{name}"] = round(right / max(total, 1), 4)
        if full:
            s = evaluate(r, rest).summary()
            out[f"f1_{name}"], out[f"all_right_{name}"] = s["tile_f1"], s["photos_all_right"]
    return out


def add_reading_options(ap: argparse.ArgumentParser) -> None:
    """The options of a profile evaluation that say what is read and where the numbers go."""
    ap.add_argument(
        "--test", type=int, default=60, help="scenes read per artwork (none a profile learnt from)"
    )
    ap.add_argument("--full", action="store_true", help="also the whole pipeline's F1 (slower)")
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(ap)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a datasets.world_scenes folder (with kinds.json)")
    ap.add_argument("--photos", type=int, nargs="*", default=[], help="profiles from the first N scenes")
    ap.add_argument("--one-each", type=int, nargs="*", default=[], help="profiles of N tiles of each code")
    ap.add_argument(
        "--learnt-with", type=Path, help="learn the profiles with these models, read with --models"
    )
    add_reading_options(ap)
    args = ap.parse_args(argv)
    kinds = scene_kinds(args.folder, "evaluate_profile")
    recognizer = load_recognizer("evaluate_profile", args.models, args.threads, sets=args.set)
    if kinds is None or recognizer is None:
        return 2
    teacher = recognizer
    if args.learnt_with is not None:
        older = load_recognizer("evaluate_profile", args.learnt_with, args.threads, sets=args.set)
        if older is None:
            return 2
        teacher = older
    out: dict[str, Any] = {}
    for artwork, samples in sorted(by_artwork(args.folder, kinds).items()):
        runs: list[tuple[str, SetProfile, set[int]]] = []
        for n in args.photos:
            runs.append((f"{n} photos", learn_photos(teacher, samples[:n]), set(range(n))))
        for shots in args.one_each:
            runs.append((f"{shots} of each code", *learn_one_each(teacher, samples, shots)))
        for label, learnt, used in runs:
            profile = dataclasses.replace(learnt, classifier=recognizer.classifier_id)
            rest = [s for k, s in enumerate(samples) if k not in used][: args.test]
            result = measure(recognizer, profile, rest, args.full)
            out[f"{artwork}, {label}"] = result
            shown = ", ".join(f"{k} {v}" for k, v in result.items())
            print(f"{artwork:20s} {label:16s} {shown}", flush=True)
    for key in ("named_without", "named_with", "f1_without", "f1_with"):
        for label in sorted({k.split(", ", 1)[1] for k in out}):
            values = [v[key] for k, v in out.items() if k.endswith(label) and key in v]
            if values:
                print(f"mean over artworks, {label}: {key} {np.mean(values):.4f}")
    write_report(args.json, args.folder, args.models, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
