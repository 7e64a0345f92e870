"""The two small networks: a crop classifier (43 labels) and a CenterNet-style tile detector."""

from __future__ import annotations

import torch
from torch import nn


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    """Conv + BatchNorm + ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class TileClassifier(nn.Module):
    """Plain 5-stage CNN on 3x64x48 crops -> 43 logits (~0.85 M parameters at width 32; v9 and v10 are
    width 48, 1.9 M, v9 made from a width-32 network by datasets.widen)."""

    def __init__(self, num_classes: int = 43, width: int = 32) -> None:
        super().__init__()
        c = [width, width * 2, width * 4, width * 6]
        self.features = nn.Sequential(
            conv_bn(3, c[0], 2),  # 32x24
            conv_bn(c[0], c[0]),
            conv_bn(c[0], c[1], 2),  # 16x12
            conv_bn(c[1], c[1]),
            conv_bn(c[1], c[2], 2),  # 8x6
            conv_bn(c[2], c[2]),
            conv_bn(c[2], c[3], 2),  # 4x3
            conv_bn(c[3], c[3]),
        )
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(c[3], num_classes)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class ClassifierEnsemble(nn.Module):
    """Several trained classifiers as one: log of their mean probabilities (valid logits for a softmax),
    so an ensemble exports as one classifier.onnx with the same contract."""

    def __init__(self, members: list[TileClassifier]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probs = torch.stack([m(x).softmax(dim=1) for m in self.members]).mean(dim=0)
        return probs.clamp_min(1e-12).log()


class TileDetector(nn.Module):
    """Small encoder (stride 32) with a top-down path back to stride 4; heads: heatmap (2, sigmoid in
    eval/export), size (2, input pixels), offset (2, 0..1)."""

    def __init__(self, width: int = 16, neck: int = 48) -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(conv_bn(3, w, 2), conv_bn(w, w))  # /2
        self.s4 = nn.Sequential(conv_bn(w, w * 2, 2), conv_bn(w * 2, w * 2))  # /4
        self.s8 = nn.Sequential(conv_bn(w * 2, w * 4, 2), conv_bn(w * 4, w * 4))  # /8
        self.s16 = nn.Sequential(conv_bn(w * 4, w * 6, 2), conv_bn(w * 6, w * 6))  # /16
        self.s32 = nn.Sequential(
            conv_bn(w * 6, w * 8, 2), conv_bn(w * 8, w * 8), conv_bn(w * 8, w * 8)
        )  # /32
        self.lat32 = conv_bn(w * 8, neck, k=1)
        self.lat16 = conv_bn(w * 6, neck, k=1)
        self.lat8 = conv_bn(w * 4, neck, k=1)
        self.lat4 = conv_bn(w * 2, neck, k=1)
        self.smooth16 = conv_bn(neck, neck)
        self.smooth8 = conv_bn(neck, neck)
        self.smooth4 = conv_bn(neck, neck)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.heatmap = nn.Conv2d(neck, 2, 1)
        self.size = nn.Conv2d(neck, 2, 1)
        self.offset = nn.Conv2d(neck, 2, 1)
        nn.init.constant_(self.heatmap.bias, -2.19)  # type: ignore[arg-type]  # prior 0.1, as in CenterNet
        self.export_mode = False

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p = self.lat32(f32)
        p = self.smooth16(self.up(p) + self.lat16(f16))
        p = self.smooth8(self.up(p) + self.lat8(f8))
        p = self.smooth4(self.up(p) + self.lat4(f4))
        heat = self.heatmap(p)
        size = torch.exp(self.size(p).clamp(max=8.0)) * 16.0  # box side in input pixels, positive
        offset = torch.sigmoid(self.offset(p))
        if self.export_mode:
            heat = torch.sigmoid(heat)
        return heat, size, offset
