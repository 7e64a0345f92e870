"""train_classifier --teacher: the distillation loss is zero when the network reads as its teacher and grows
as they part, and an averaging ensemble can teach (its output is log-probabilities)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from datasets.models import ClassifierEnsemble, TileClassifier  # noqa: E402
from datasets.train_classifier import distillation  # noqa: E402


def test_a_network_taught_by_itself_has_nothing_to_learn() -> None:
    torch.manual_seed(0)
    net = TileClassifier(44, 8).eval()
    x = torch.rand(4, 3, 64, 48)
    assert float(distillation(net(x).detach(), net, x)) == pytest.approx(0.0, abs=1e-6)


def test_the_loss_grows_as_the_network_parts_from_an_ensemble_teacher() -> None:
    torch.manual_seed(1)
    members = [TileClassifier(44, 8).eval() for _ in range(2)]
    teacher = ClassifierEnsemble(members).eval()
    x = torch.rand(4, 3, 64, 48)
    agreeing = teacher(x).detach()  # log of the averaged probabilities: a valid set of logits
    near = distillation(agreeing, teacher, x)
    sure_of_one = torch.zeros_like(agreeing)
    sure_of_one[:, 0] = 10.0  # certain of one code where the untrained teacher is unsure of all
    far = distillation(sure_of_one, teacher, x)
    assert float(near) == pytest.approx(0.0, abs=1e-5)
    assert float(far) > float(near) + 1.0
