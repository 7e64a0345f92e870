"""A club's own tile set, learnt from tiles the player has named: the classifier reads a set it never saw
far worse than its training sets, but tiles of one set look alike, so a few named examples of each code
tell it how this set draws them.

A profile keeps, for each named tile, the classifier's pooled feature vector (classifier.onnx's "features"
output) and the classifier's own probabilities for it. A tile of a new photo is then read by both: the
classifier's log probabilities plus its cosine likeness to each code's examples (their mean, "prototype")
divided by a temperature. How much the likeness counts is decided per profile, by reading its own
examples with each one left out in turn: a set the classifier already reads well keeps the classifier's
reading, an unfamiliar one leans on the examples. Measured in benchmarks/RESULTS.md (session 24).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from recognizer.errors import ProfileError
from recognizer.labels import LABELS
from scoring.tiles import BACK

FORMAT = "mahjong-nts set profile"
VERSION = 1

TEMPERATURES: tuple[float | None, ...] = (0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.3, None)
"""The temperatures a profile chooses among by leave-one-out reading of its examples (None: the
classifier alone). On a tie the later (the classifier's side) wins."""

FALLBACK_TEMPERATURE: float | None = None
"""Used while a profile has too few examples to check itself: the classifier alone. On the training
artworks' tune scenes, profiles of one photo or one tile of each code read worse at 0.1 (RESULTS.md)."""

COMPLETE_TEMPERATURE: float | None = 0.15
"""Used while a profile that holds every tile face (one of each code: a photo of the whole set laid out)
has too few examples to check itself, when the classifier alone misread at least one of them (a set it
reads right throughout keeps its reading). Chosen among TEMPERATURES on the training artworks' tune
scenes, each taught by one rendered photo of its whole set (`datasets.evaluate_layout`): named right
0.9483 -> 0.9484 at 0.15, 0.9482 at 0.2; without the misread condition every value lost (0.9459-0.9476).
A partial profile cannot do without checks: the codes it lacks get no likeness (RESULTS.md, session 25)."""

UNFAMILIAR_SHARE = 1 / 6
"""A complete profile whose examples the classifier alone misread at least this share of (7 of the 42
faces) is a set it does not know, and reads at UNFAMILIAR_TEMPERATURE instead. The training artworks'
layouts were misread at most 6 of 42 times (procedural-varied, many styles per code, where 0.15 is best),
so this share leaves every tune scene as it was (RESULTS.md, session 26)."""

UNFAMILIAR_TEMPERATURE: float | None = 0.03
"""The temperature of a complete profile of a set the classifier does not know (UNFAMILIAR_SHARE). No
training artwork is that unfamiliar, so the tune scenes cannot choose it; chosen across the held-out
artworks, each measured at the value the others chose (named right 0.799 -> 0.822; RESULTS.md, session 26)."""

MIN_CHECKS = 8
"""Examples (whose code has another example) needed before a profile chooses its own temperature."""

UNSEEN_LIKENESS: float | None = None
"""The likeness given to codes with no example, so a partial profile can still read them; None: each
tile's best likeness to a code with examples (nothing said for or against an unseen code). None, against
0.7, on the tune scenes with profiles of 1 and 3 photos: named right 0.9461 / 0.9442 against 0.9449 /
0.9451 (a tie; None has no constant to choose)."""

MAX_PER_CODE = 8
"""Examples kept per code; the newest win (a profile grows with every corrected photo)."""

SAME_TILE = 0.999999
"""Cosine likeness at which a named tile is one the profile holds already: the same crop of the same photo
(stored vectors are rounded to 5 decimals); two tiles of one code in a photo are far below it."""

MAX_FILE_BYTES = 20_000_000
NAME_MAX = 80


def unit(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (zero rows stay zero)."""
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return (rows / np.maximum(norms, 1e-9)).astype(np.float32)


def fingerprint(classifier: bytes) -> str:
    """Short id of a classifier.onnx: a profile's vectors only mean something to the model that made them."""
    return hashlib.sha256(classifier).hexdigest()[:16]


@dataclass(frozen=True)
class Example:
    """One named tile: its code, unit feature vector and the classifier's probabilities over LABELS as the
    runtime reads it, not knowing the code (what leave-one-out weighs the examples against)."""

    code: str
    features: np.ndarray
    probs: np.ndarray


@dataclass(frozen=True)
class SetProfile:
    """The named tiles of one tile set, for one classifier (`classifier`: its fingerprint)."""

    name: str
    classifier: str
    examples: tuple[Example, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def codes(self) -> list[str]:
        """The codes with at least one example, in LABELS order."""
        have = {e.code for e in self.examples}
        return [c for c in LABELS if c in have]

    @property
    def checks(self) -> int:
        """Examples whose code has another example: those the profile can check itself on."""
        count: dict[str, int] = {}
        for e in self.examples:
            count[e.code] = count.get(e.code, 0) + 1
        return sum(n for n in count.values() if n >= 2)

    @property
    def complete(self) -> bool:
        """Whether every tile face (each code but "back") has an example."""
        have = {e.code for e in self.examples}
        return all(code in have for code in LABELS if code != BACK)

    @property
    def knows_backs(self) -> bool:
        """Whether the set's own face-down tile is named: its look, not its colour, then tells a back from a
        blank white dragon (recognizer/blank_white.py steps aside; a set may be ivory all through)."""
        return any(e.code == BACK for e in self.examples)

    @property
    def judged(self) -> bool:
        """Whether the profile knows if it is needed: it can check itself (`ready`), or it holds the whole
        set (`complete`) and so can tell whether the classifier misreads it."""
        return self.ready or self.complete

    @property
    def misread(self) -> int:
        """Examples the classifier alone reads as another code: the set is not one it knows."""
        return sum(LABELS[int(np.argmax(e.probs))] != e.code for e in self.examples)

    @property
    def unfamiliar(self) -> bool:
        """Whether the profile reads as a set the classifier does not know (UNFAMILIAR_TEMPERATURE): it
        holds every face, cannot check itself yet, and the classifier alone misread at least
        UNFAMILIAR_SHARE of its examples."""
        return self.complete and not self.ready and self.misread >= UNFAMILIAR_SHARE * len(self.examples)

    @property
    def ready(self) -> bool:
        """Whether the profile has enough examples to choose its temperature (MIN_CHECKS)."""
        return self.checks >= MIN_CHECKS

    def learnt(self, codes: Sequence[str], features: np.ndarray, probs: np.ndarray) -> SetProfile:
        """This profile with more named tiles (at most MAX_PER_CODE per code, the newest kept). A tile it
        holds already (the same photo named twice) is not added again: a twin would vouch for itself
        when the profile checks its own examples."""
        new: list[Example] = []
        for c, f, p in zip(codes, features, probs, strict=True):
            example = Example(c, unit(np.asarray(f, np.float32)[None])[0], np.asarray(p, np.float32))
            if not any(
                e.code == c and float(e.features @ example.features) >= SAME_TILE
                for e in [*self.examples, *new]
            ):
                new.append(example)
        kept: list[Example] = []
        count: dict[str, int] = {}
        for example in reversed([*self.examples, *new]):
            if count.get(example.code, 0) < MAX_PER_CODE:
                count[example.code] = count.get(example.code, 0) + 1
                kept.append(example)
        return SetProfile(self.name, self.classifier, tuple(reversed(kept)))

    def added_in(self, learnt: SetProfile) -> int:
        """How many examples of `learnt` (this profile grown by `learnt()`) are new to this one."""
        before = {id(e) for e in self.examples}
        return sum(id(e) not in before for e in learnt.examples)

    def likeness(self, features: np.ndarray, leave_out: bool = False) -> np.ndarray:
        """(n, len(LABELS)) cosine likeness of each feature row to each code's prototype (UNSEEN_LIKENESS
        for codes without examples). With `leave_out`, `features` are the examples' own, each compared
        with prototypes made without it."""
        n_labels = len(LABELS)
        dim = features.shape[1] if features.ndim == 2 else 0
        sums = np.zeros((n_labels, dim), np.float64)
        counts = np.zeros(n_labels)
        for e in self.examples:
            sums[LABELS.index(e.code)] += e.features
            counts[LABELS.index(e.code)] += 1
        rows = unit(np.asarray(features, np.float32))
        out = np.zeros((len(rows), n_labels), np.float32)
        if not leave_out:
            return unseen(rows @ unit(sums).T, counts > 0)
        for i, e in enumerate(self.examples):
            k = LABELS.index(e.code)
            own_sums, own_counts = sums.copy(), counts.copy()
            own_sums[k] -= e.features
            own_counts[k] -= 1
            out[i] = unseen(rows[i : i + 1] @ unit(own_sums).T, own_counts > 0)[0]
        return out

    @property
    def temperature(self) -> float | None:
        """How much likeness counts (smaller: more); None: the classifier's reading alone. Chosen by
        reading the examples whose code has another example, each left out in turn; while fewer than
        MIN_CHECKS such examples exist, a complete profile the classifier misread in part reads at
        COMPLETE_TEMPERATURE (UNFAMILIAR_TEMPERATURE when it misread UNFAMILIAR_SHARE of it), any other
        at FALLBACK_TEMPERATURE."""
        if "temperature" not in self._cache:
            self._cache["temperature"] = self._choose_temperature()
        return self._cache["temperature"]

    def _choose_temperature(self) -> float | None:
        if self.unfamiliar:
            return UNFAMILIAR_TEMPERATURE
        if not self.ready:
            return COMPLETE_TEMPERATURE if self.complete and self.misread else FALLBACK_TEMPERATURE
        codes = [e.code for e in self.examples]
        checked = [i for i, c in enumerate(codes) if codes.count(c) >= 2]
        feats = np.stack([self.examples[i].features for i in range(len(codes))])
        probs = np.stack([e.probs for e in self.examples])[checked]
        likeness = self.likeness(feats, leave_out=True)[checked]
        truth = np.array([LABELS.index(codes[i]) for i in checked])
        best, best_right = None, -1
        for t in TEMPERATURES:
            right = int((blend(probs, likeness, t).argmax(axis=1) == truth).sum())
            if right >= best_right:  # a tie goes to the later: closer to the classifier alone
                best, best_right = t, right
        return best

    def adjust(self, probs: np.ndarray, features: np.ndarray) -> np.ndarray:
        """Probability rows (LABELS first, then any "not a tile" column, kept as it is) read with this
        set's examples; the LABELS columns keep their total."""
        t = self.temperature
        if t is None or not self.examples or len(probs) == 0:
            return probs
        n = len(LABELS)
        tiles = probs[:, :n]
        total = tiles.sum(axis=1, keepdims=True)
        read = blend(tiles / np.maximum(total, 1e-12), self.likeness(features), t)
        out = probs.copy()
        out[:, :n] = read * total
        return out

    def to_json(self) -> dict[str, Any]:
        """The profile as a JSON object (numbers rounded to 5 decimals)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "classifier": self.classifier,
            "examples": [
                {
                    "code": e.code,
                    "features": [round(float(v), 5) for v in e.features],
                    "probs": [round(float(v), 5) for v in e.probs],
                }
                for e in self.examples
            ],
        }


def unseen(likeness: np.ndarray, have: np.ndarray) -> np.ndarray:
    """`likeness` with the columns of codes without examples (`~have`) set to UNSEEN_LIKENESS, or to each
    row's best likeness among the codes with examples when that is None."""
    out = likeness.astype(np.float32)
    if not have.any():
        out[:] = 0.0
    elif UNSEEN_LIKENESS is None:
        out[:, ~have] = out[:, have].max(axis=1, keepdims=True)
    else:
        out[:, ~have] = UNSEEN_LIKENESS
    return out


def blend(probs: np.ndarray, likeness: np.ndarray, temperature: float | None) -> np.ndarray:
    """Rows of probabilities over LABELS: log `probs` plus likeness over `temperature`, normalised."""
    if temperature is None:
        return probs
    logit = np.log(np.maximum(probs, 1e-7)) + (likeness - likeness.max(axis=1, keepdims=True)) / temperature
    logit -= logit.max(axis=1, keepdims=True)
    out = np.exp(logit)
    return (out / out.sum(axis=1, keepdims=True)).astype(np.float32)


def _numbers(value: Any, length: int | None, where: str) -> np.ndarray:
    """A list of finite numbers (of `length`, when given) as float32; ProfileError otherwise."""
    ok = isinstance(value, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value
    )
    if not ok or not value or (length is not None and len(value) != length):
        size = f"{length} " if length is not None else ""
        raise ProfileError(f"{where} must be a list of {size}finite numbers")
    return np.asarray(value, np.float32)


def profile_from_json(data: Any, source: str = "set profile") -> SetProfile:
    """A SetProfile from its JSON object; ProfileError names the first thing wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProfileError(f"{source}: not a mahjong-nts set profile")
    if data.get("version") != VERSION:
        raise ProfileError(
            f"{source}: set profile version {data.get('version')!r}; this program reads {VERSION}"
        )
    name, classifier, examples = data.get("name"), data.get("classifier"), data.get("examples")
    if not isinstance(name, str) or not isinstance(classifier, str) or not isinstance(examples, list):
        raise ProfileError(f"{source}: needs a name, a classifier id and a list of examples")
    out: list[Example] = []
    dim: int | None = None
    for i, item in enumerate(examples, start=1):
        where = f"{source}: example {i}"
        if not isinstance(item, dict) or item.get("code") not in LABELS:
            raise ProfileError(f"{where}: code must be one of the tile codes (1m..9m, ..., 1y..4y, back)")
        features = _numbers(item.get("features"), dim, f"{where}: features")
        dim = len(features)
        out.append(
            Example(item["code"], unit(features), _numbers(item.get("probs"), len(LABELS), f"{where}: probs"))
        )
    return SetProfile(name[:NAME_MAX], classifier, tuple(out))


def read_profile(path: Path | str) -> SetProfile:
    """Load a profile file; ProfileError (one line) for a missing, huge, or malformed file."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ProfileError(f"{path}: {size / 1e6:.0f} MB is too large for a set profile")
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such set profile") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, ProfileError):
            raise
        raise ProfileError(f"{path}: cannot read the set profile ({type(exc).__name__})") from None
    return profile_from_json(data, str(path))


def write_profile(profile: SetProfile, path: Path | str) -> None:
    """Save `profile` as JSON at `path`, whole or not at all (written beside it, then moved over it)."""
    path = Path(path)
    temp = path.with_name(f".{path.name}.tmp")
    try:
        temp.write_text(json.dumps(profile.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
        temp.replace(path)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise ProfileError(f"{path}: cannot write the set profile ({exc.strerror or exc})") from None
