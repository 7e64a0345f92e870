"""datasets.quantize: the runtime's 8-bit classifier made from the float one, reading what it reads; the
float original kept for training, and set profiles made with it still read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from fake_models import LEVELS, code_for, tile_grid, write_fake_models
from PIL import Image

from datasets.onnx_features import add_features
from datasets.quantize import (
    CLASSIFIER,
    DETECTOR,
    correct_biases,
    float_ends,
    float_models,
    layer_outputs,
    main,
    quantize,
    record_inputs,
    trained_model,
    write_models,
)
from mahjong_nts.cli.main import main as cli
from recognizer import Recognizer, load_image
from recognizer.errors import ProfileError
from recognizer.models import ModelConfig
from recognizer.set_profile import fingerprint

ROOT = Path(__file__).resolve().parent.parent
TILES = [(top, bottom) for top in LEVELS for bottom in LEVELS]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """Float fake models (with a features output), fake photos of every fake tile, and the 8-bit models
    made from them by the recognizer's own reading of the photos."""
    root = tmp_path_factory.mktemp("quantize")
    source = write_fake_models(root / "float")
    add_features(source / CLASSIFIER)
    photos = []
    for k in range(3):
        path = root / f"photo{k}.png"
        shade = [(min(1.0, t + 0.03 * k), min(1.0, b + 0.03 * k)) for t, b in TILES[4 * k : 4 * k + 4]]
        Image.fromarray(tile_grid(shade or TILES[:4])).save(path)
        photos.append(path)
    seen = record_inputs(source, photos)
    out = root / "models"
    write_models(source, out, seen, (CLASSIFIER,))
    return source, out, root


def test_the_8_bit_classifier_reads_every_fake_tile_as_the_float_one(made: tuple[Path, Path, Path]) -> None:
    source, out, root = made
    path = root / "all.png"
    Image.fromarray(tile_grid(TILES)).save(path)
    float_codes = Recognizer(source).recognize(load_image(path)).codes
    assert Recognizer(out).recognize(load_image(path)).codes == float_codes == [code_for(*t) for t in TILES]
    graph_ops = {node.op_type for node in onnx.load(str(out / CLASSIFIER)).graph.node}
    assert "QuantizeLinear" in graph_ops and "DequantizeLinear" in graph_ops


def test_the_float_original_is_kept_and_named_for_profiles(made: tuple[Path, Path, Path]) -> None:
    source, out, _ = made
    assert (out / "float" / CLASSIFIER).read_bytes() == (source / CLASSIFIER).read_bytes()
    assert (out / DETECTOR).read_bytes() == (source / DETECTOR).read_bytes()  # the detector stays float
    assert not (out / "float" / DETECTOR).exists()
    assert trained_model(out, CLASSIFIER) == out / "float" / CLASSIFIER
    assert trained_model(out, DETECTOR) == out / DETECTOR
    labels = json.loads((out / "labels.json").read_text())
    assert labels["profiles_from"] == [fingerprint((source / CLASSIFIER).read_bytes())]
    assert ModelConfig.from_dict(labels).profiles_from == tuple(labels["profiles_from"])


def test_quantizing_the_shipped_folder_again_gives_the_same_model(made: tuple[Path, Path, Path]) -> None:
    _, out, root = made
    again = float_models(out, root / "again_float")  # the float originals, as `--source` defaults to them
    assert (again / CLASSIFIER).read_bytes() == (out / "float" / CLASSIFIER).read_bytes()
    seen = record_inputs(again, sorted(root.glob("photo*.png")))
    write_models(again, root / "again", seen, (CLASSIFIER,))
    assert (root / "again" / CLASSIFIER).read_bytes() == (out / CLASSIFIER).read_bytes()
    assert (root / "again" / "labels.json").read_text() == (out / "labels.json").read_text()


def test_a_profile_made_with_the_float_classifier_is_read(
    made: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source, out, root = made
    path = root / "photo0.png"
    profile = root / "set.json"
    codes = " ".join(code_for(t, b) for t, b in TILES[:4])
    assert (
        cli(
            ["learn-set", str(path), "--tiles", codes, "--set-profile", str(profile), "--models", str(source)]
        )
        == 0
    )
    capsys.readouterr()
    assert cli(["recognize", str(path), "--json", "--set-profile", str(profile), "--models", str(out)]) == 0
    read = [t["code"] for t in json.loads(capsys.readouterr().out.splitlines()[0])["tiles"]]
    assert read == codes.split()
    stranger = Recognizer(out).new_profile("x")
    with pytest.raises(ProfileError, match="another classifier"):  # the 8-bit one's profiles: not the float's
        Recognizer(source).with_profile(stranger)


def chain_model(path: Path) -> Path:
    """A chain conv -> relu -> conv -> relu -> pool -> gemm, random weights and biases, saved at `path`."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "w1"),
        numpy_helper.from_array(rng.normal(size=4).astype(np.float32), "b1"),
        numpy_helper.from_array(rng.normal(size=(4, 4, 3, 3)).astype(np.float32), "w2"),
        numpy_helper.from_array(rng.normal(size=4).astype(np.float32), "b2"),
        numpy_helper.from_array(rng.normal(size=(4, 5)).astype(np.float32), "w3"),
        numpy_helper.from_array(rng.normal(size=5).astype(np.float32), "b3"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["a"], name="first", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a"], ["b"], name="r1"),
        helper.make_node("Conv", ["b", "w2", "b2"], ["c"], name="middle", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["d"], name="r2"),
        helper.make_node("GlobalAveragePool", ["d"], ["e"], name="pool"),
        helper.make_node("Flatten", ["e"], ["f"], name="flat"),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["y"], name="last"),
    ]
    graph = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])],
        initializer=inits,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_float_ends_are_the_layers_next_to_input_and_outputs(tmp_path: Path) -> None:
    """The first conv reads the input, the gemm makes the output; the middle conv is neither."""
    assert float_ends(chain_model(tmp_path / "chain.onnx")) == ["first", "last"]


def test_bias_correction_takes_the_mean_error_out(tmp_path: Path) -> None:
    """Each 8-bit layer's outputs miss the float layer's by some mean per channel; after the correction
    that mean is (nearly) gone."""
    original = chain_model(tmp_path / "chain.onnx")
    inputs = [np.random.default_rng(k).random((64, 3, 8, 8), dtype=np.float32) for k in range(4)]
    plain, fixed = tmp_path / "plain.onnx", tmp_path / "fixed.onnx"
    quantize(original, plain, inputs)
    fixed.write_bytes(plain.read_bytes())
    correct_biases(original, fixed, inputs)
    crops = np.concatenate(inputs)
    (want,) = layer_outputs(onnx.load(str(original)), ["y"], crops)

    def mean_error(path: Path) -> float:
        model = onnx.load(str(path))
        (got,) = layer_outputs(
            model, [next(n.output[0] for n in model.graph.node if n.name == "last")], crops
        )
        return float(np.abs((got - want).mean(axis=0)).max())

    before, after = mean_error(plain), mean_error(fixed)
    assert before > 1e-3 and after < before / 2


def test_the_shipped_classifier_is_its_float_original_in_8_bits() -> None:
    models = ROOT / "models"
    if not (models / "float" / CLASSIFIER).is_file():
        pytest.skip("the shipped classifier is not quantized")
    labels = json.loads((models / "labels.json").read_text())
    assert labels["profiles_from"] == [fingerprint((models / "float" / CLASSIFIER).read_bytes())]
    crops = []
    recognizer = Recognizer()
    for name in ("hand1", "hand3", "hand5"):
        image = load_image(ROOT / "samples" / f"{name}.jpg")
        boxes = recognizer.recognize(image).xyxy * np.float32(image.scale)
        batch, _ = recognizer.classifier.batch(image.rgb, boxes, [[(False, False)]] * len(boxes))
        crops.append(batch)
    batch = np.concatenate(crops)
    logits = [
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["logits"], {"crops": batch})[
            0
        ]
        for path in (models / CLASSIFIER, models / "float" / CLASSIFIER)
    ]
    assert len(batch) >= 30
    assert (logits[0].argmax(1) == logits[1].argmax(1)).mean() >= 0.95


def test_missing_scenes_or_models_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--source", str(tmp_path / "none"), "--scenes", str(tmp_path)]) == 2
    assert "float models not found" in capsys.readouterr().err
    source = write_fake_models(tmp_path / "float")
    assert (
        main(["--source", str(source), "--scenes", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")])
        == 2
    )
    assert "no scenes in" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_an_export_replaces_the_float_originals_it_makes_stale(tmp_path: Path) -> None:
    """A new round exported into a models folder: its float classifier is the one to quantize next, so the
    old float original (and profiles_from, which named it) must go."""
    torch = pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")
    from datasets.export_onnx import main as export
    from datasets.models import TileClassifier as TorchClassifier
    from datasets.models import TileDetector as TorchDetector

    torch.manual_seed(0)
    torch.save({"model": TorchDetector(8, 16).state_dict(), "args": {"width": 8, "neck": 16, "size": 64}},
               tmp_path / "d.pt")  # fmt: skip
    torch.save({"model": TorchClassifier(44, 8).state_dict(), "args": {"width": 8}}, tmp_path / "c.pt")
    models = tmp_path / "models"
    (models / "float").mkdir(parents=True)
    (models / "float" / CLASSIFIER).write_bytes(b"the old round's float classifier")
    (models / "labels.json").write_text('{"profiles_from": ["f44482691e87232b"]}')
    assert export(["--detector", str(tmp_path / "d.pt"), "--classifier", str(tmp_path / "c.pt"),
                   "--out", str(models)]) == 0  # fmt: skip
    assert not (models / "float").exists()
    assert trained_model(models, CLASSIFIER) == models / CLASSIFIER
    assert "profiles_from" not in json.loads((models / "labels.json").read_text())
