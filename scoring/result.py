"""The score of one hand as a value object; to_dict() is the CONTRACT `score` output."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from scoring.rulesets import get_ruleset

REASONS: dict[str, tuple[str, str]] = {  # English, Dutch; {option} fields come from the ruleset's options
    "no_winning_shape": (
        "no mahjong shape: the tiles form neither 4 sets and a pair nor a limit hand",
        "geen mahjong-vorm",
    ),
    "too_few_doublings": (
        "too few doublings: a mahjong needs at least {min_doublings}",
        "te weinig verdubbelingen",
    ),
    "dead_hand": ("dead hand: scores 0 and still pays", "dood spel"),
}


class ScoreItem(NamedTuple):
    """One line of the breakdown: a rule that applied, worth points or doublings."""

    name: str
    name_en: str
    kind: str  # "points" | "doublings"
    value: int
    tiles: str | None = None

    def to_dict(self) -> dict[str, Any]:
        name, name_en, kind, value, tiles = self
        if tiles is None:
            return {"name": name, "name_en": name_en, kind: value}
        return {"name": name, "name_en": name_en, kind: value, "tiles": tiles}


class ScoredSet(NamedTuple):
    """A set as the score read it: chow, pung, kong, pair, seven_pairs or loose tiles."""

    kind: str
    tiles: str
    open: bool = False
    winning: bool = False

    def to_dict(self) -> dict[str, Any]:
        kind, tiles, is_open, winning = self
        if winning:
            return {"kind": kind, "tiles": tiles, "open": is_open, "winning": True}
        return {"kind": kind, "tiles": tiles, "open": is_open}


@dataclass(frozen=True)
class LimitScore:
    """The limit hand that decided the score; a loser's half limit has value = full_value // 2."""

    name: str
    name_en: str
    value: int
    full_value: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "name_en": self.name_en,
            "value": self.value,
            "full_value": self.full_value,
        }


@dataclass(frozen=True)
class ScoreResult:
    """Outcome of score_hand: valid or not (with a reason), the total and the breakdown behind it."""

    valid: bool
    total: int
    base_points: int
    doublings: int
    ruleset: str
    role: str
    reason_code: str | None = None
    limit_hand: LimitScore | None = None
    items: tuple[ScoreItem, ...] = ()
    sets: tuple[ScoredSet, ...] = field(default_factory=tuple)

    @property
    def reason(self) -> str | None:
        return self._reasons()[0]

    @property
    def reason_nl(self) -> str | None:
        return self._reasons()[1]

    def _reasons(self) -> tuple[str | None, str | None]:
        """Why the hand is no mahjong, in English and Dutch, with the numbers of the ruleset's options."""
        if not self.reason_code:
            return None, None
        english, dutch = REASONS[self.reason_code]
        if "{" not in english + dutch:
            return english, dutch
        options = vars(get_ruleset(self.ruleset).options)
        return english.format(**options), dutch.format(**options)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals(),
            "items": [item.to_dict() for item in self.items],
            "sets": [s.to_dict() for s in self.sets],
            "ruleset": self.ruleset,
            "role": self.role,
        }

    def to_json(self) -> str:
        """to_dict() as one compact JSON line: the text of json.dumps(self.to_dict(), ensure_ascii=False,
        separators=(",", ":")) in half the time, as the results of a batch share their items and sets (a few
        hundred distinct ones in 4,000 hands), each encoded once."""
        totals = _compact(self._totals())
        items = ",".join(map(_part_json, self.items))
        sets = ",".join(map(_part_json, self.sets))
        names = _compact({"ruleset": self.ruleset, "role": self.role})
        return f'{totals[:-1]},"items":[{items}],"sets":[{sets}],{names[1:]}'

    def _totals(self) -> dict[str, Any]:
        """The fields of to_dict() before the items."""
        reason, reason_nl = self._reasons()
        return {
            "valid": self.valid,
            "reason": reason,
            "reason_nl": reason_nl,
            "reason_code": self.reason_code,
            "total": self.total,
            "base_points": self.base_points,
            "doublings": self.doublings,
            "limit_hand": self.limit_hand.to_dict() if self.limit_hand else None,
        }


_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@lru_cache(maxsize=4096)
def _part_json(part: ScoreItem | ScoredSet) -> str:
    """The compact JSON of one item or set, made once per distinct one (the engine's fields are plain str,
    int and bool, so equal parts have equal JSON)."""
    return _compact(part.to_dict())
