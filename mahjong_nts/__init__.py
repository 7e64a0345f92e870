"""mahjong-nts: score Dutch tournament mahjong (NTS) hands from a photo."""

__version__ = "0.1.0"
