"""Bonus reader: the tiles the classifier calls a flower or season, read again by `bonus_reader.onnx`.

Sets print their flowers and seasons in many ways (a numeral, the character, an English name); the
classifier knows the pictures of the sets it was trained on, the reader was trained to read the print. It
names one of the flower and season codes labels.json lists, or "none of them" (its last logit), which hands
the tile back to the classifier's other readings."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from recognizer.classifier import INPUTS, OUTPUTS, combine_views, cut_crops, softmax, view_plan
from recognizer.errors import ModelError
from recognizer.session import check_io

READER_NAME = "bonus_reader.onnx"


class BonusReader:
    """Runs `bonus_reader.onnx` on the crops of the tiles the classifier thinks may be flowers or seasons."""

    def __init__(
        self,
        session: ort.InferenceSession,
        size: tuple[int, int],
        pad: float,
        codes: tuple[str, ...],
        labels: tuple[str, ...],
    ) -> None:
        check_io(session, READER_NAME, INPUTS, OUTPUTS)
        shape = next(o.shape for o in session.get_outputs() if o.name == OUTPUTS[0])
        width = shape[-1] if shape else None
        if isinstance(width, int) and width > 0 and width != len(codes) + 1:
            raise ModelError(
                f"{READER_NAME} gives {width} logits per crop, labels.json's bonus_reader asks for "
                f"{len(codes) + 1} ({len(codes)} codes and 'none of them')"
            )
        self.session = session
        self.size = size
        self.pad = pad
        self.columns = np.array([labels.index(code) for code in codes], np.int64)
        self.others = np.setdiff1d(np.arange(len(labels)), self.columns)

    def reread(
        self,
        rgb: np.ndarray,
        xyxy: np.ndarray,
        probs: np.ndarray,
        min_mass: float,
        square_band: float,
        weight: float = 1.0,
    ) -> np.ndarray:
        """(n, labels) probabilities with every tile whose flower-and-season share is at least `min_mass`
        read again: that share is divided as the reader says, and what the reader calls none of them
        goes back to the other labels in the classifier's proportions. Each such tile is read the way
        its box lies (both ways when its long side is under `square_band` times its short side, the
        surer read winning); the reader was trained on tiles either way up. With `weight` under 1 the
        share is divided by the geometric mean of the classifier's division (power 1 - weight) and the
        reader's (power weight)."""
        mass = probs[:, self.columns].sum(axis=1)
        chosen = np.nonzero(mass >= min_mass)[0]
        if len(chosen) == 0:
            return probs
        crops, owner = [], []
        for k, i in enumerate(chosen):
            box = xyxy[i]
            views = view_plan(box, "none", square_band)
            crops += cut_crops(rgb, box, self.pad, self.size, views)
            owner += [k] * len(views)
        batch = np.ascontiguousarray(np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        read = softmax(np.asarray(self.session.run(list(OUTPUTS), {INPUTS[0]: batch})[0], np.float32))
        read = combine_views(read, np.asarray(owner, np.int64), len(chosen), "max")
        out = probs.copy()
        share = mass[chosen][:, None]
        if weight < 1:  # the classifier's own division of the share still counts, as a geometric mean
            own = probs[np.ix_(chosen, self.columns)] / np.maximum(share, 1e-12)
            mixed = np.power(np.maximum(own, 1e-12), 1 - weight) * np.power(
                np.maximum(read[:, :-1], 1e-12), weight
            )
            read = np.concatenate(
                [mixed / mixed.sum(axis=1, keepdims=True) * (1 - read[:, -1:]), read[:, -1:]], axis=1
            )
        out[np.ix_(chosen, self.columns)] = share * read[:, :-1]
        rest = probs[np.ix_(chosen, self.others)]
        total = rest.sum(axis=1, keepdims=True)
        spread = np.divide(rest, total, out=np.full_like(rest, 1.0 / rest.shape[1]), where=total > 0)
        out[np.ix_(chosen, self.others)] = spread * (1 - share + share * read[:, -1:])
        return out
