"""ONNX Runtime sessions on the CPU, with an explicit thread count and full graph optimisation."""

from __future__ import annotations

import os

import onnxruntime as ort

from recognizer.errors import ModelError

THREADS_ENV = "MAHJONG_NTS_THREADS"


def thread_count(threads: int | None = None) -> int | None:
    """Threads per session: the argument, else $MAHJONG_NTS_THREADS, else $OMP_NUM_THREADS, else None."""
    if threads is not None:
        return max(1, int(threads))
    for name in (THREADS_ENV, "OMP_NUM_THREADS"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                return max(1, int(value))
            except ValueError:
                raise ModelError(f"{name} must be a whole number, got {value!r}") from None
    return None


def make_session(model: bytes, name: str, threads: int | None = None) -> ort.InferenceSession:
    """One CPU inference session for the ONNX bytes `model`; `name` appears in error messages."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    count = thread_count(threads)
    if count is not None:
        options.intra_op_num_threads = count
        options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # ONNX Runtime's threads spin-wait after each run; on a small machine they then take the cores from the
    # Python steps between runs (the photo resized, crops cut): a photo reads in about two thirds of the time
    # without it, with the same numbers (benchmarks/RESULTS.md, session 32).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime raises its own exception types
        raise ModelError(f"{name}: not a usable ONNX model ({' '.join(str(exc).split())[:200]})") from None


def fixed_batch(session: ort.InferenceSession) -> int | None:
    """The batch size the model's first input is fixed to, or None when its batch axis is dynamic."""
    batch = session.get_inputs()[0].shape[0]
    return batch if isinstance(batch, int) and batch > 0 else None


def check_io(
    session: ort.InferenceSession, name: str, inputs: tuple[str, ...], outputs: tuple[str, ...]
) -> None:
    """Raise ModelError unless the session has the input and output names of the model contract."""
    have_in = tuple(i.name for i in session.get_inputs())
    have_out = {o.name for o in session.get_outputs()}
    if have_in[: len(inputs)] != inputs or not set(outputs) <= have_out:
        raise ModelError(
            f"{name}: expected inputs {list(inputs)} and outputs {list(outputs)}, "
            f"got inputs {list(have_in)} and outputs {sorted(have_out)}"
        )
