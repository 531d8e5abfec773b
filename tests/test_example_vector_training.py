"""The numpy training example (examples/train_vector_numpy.py): REINFORCE on the Gymnasium
environment's vector form trains without an illegal action (``illegal="raise"``: one would
raise) and moves its policy, episodes ending and being reset in the same step."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_vector_numpy.py"


@pytest.mark.slow
def test_the_numpy_example_trains_on_the_vector_env() -> None:
    np = pytest.importorskip("numpy", reason="numpy: the rl extra is not installed")
    pytest.importorskip("gymnasium", reason="gymnasium: the rl extra is not installed")
    spec = importlib.util.spec_from_file_location("train_vector_numpy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.train("bicycle", envs=8, steps=600, seed=1)
    assert len(out["rewards"]) >= 8  # every game finished a hand at least once
    assert np.isfinite(out["weights"]).all() and np.abs(out["weights"]).sum() > 0
