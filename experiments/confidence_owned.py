"""Whether the confidence map separates right from wrong better reading `owned`, or read apart.

    python experiments/confidence_owned.py handbook=eval-out/hb/results.jsonl \
        squad2=eval-out/pairs/after-squad2/results.jsonl ...

Each `eval run` records, per adaptive answer, the features the confidence map reads (`features`,
nodes/finalize.py `confidence_features`), `owned` among them, which the installed map does not
read. This refits the map (a standardised logistic model, as `eval calibrate` fits it) with and
without `owned` on every run but one, and prints on the run left out the AUROC of right against
wrong and the ECE (10 bins), beside the installed map's on the same answers.

A third refit reads declines and answers apart: each feature but `declined` twice, once for a
decline and once for an answer (zero for the other), so a judge's probability that the sources
answer the question may count for an answer and against a decline, which one weight shared by
both cannot.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.judges import load_judge
from adaptive_rag.evaluation.calibrate import expected_calibration_error
from adaptive_rag.evaluation.judge_fit import auc, fit_logistic, predict


def load(named: list[str]) -> list[dict[str, Any]]:
    """Return the adaptive answers of each NAME=results.jsonl, with their set's name."""
    rows = []
    for item in named:
        name, path = item.split("=", 1)
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["config"] == "adaptive" and row.get("features"):
                rows.append({**row, "set": name})
    return rows


def main() -> None:
    """Print, per run left out, the refits' and the installed map's AUROC and ECE."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="NAME=path/to/results.jsonl")
    rows = load(parser.parse_args().runs)
    installed = load_judge("confidence")
    if installed is None:
        raise SystemExit("no confidence map is installed")
    base = list(installed.features)
    y = np.array([float(bool(r["acc"])) for r in rows])
    sets = np.array([r["set"] for r in rows])
    shipped = np.array([installed.probability(r["features"]) for r in rows])
    owned = [*base, "owned"]
    variants = (
        ("refit", base, plain),
        ("refit with owned", owned, plain),
        ("refit with owned, declines and answers apart", owned, apart),
    )
    for label, names, read in variants:
        x = np.array([read(r["features"], names) for r in rows])
        names = [f"f{i}" for i in range(x.shape[1])]
        print(f"## {label}")
        for name in dict.fromkeys(sets):
            test = sets == name
            model = fit_logistic("confidence", names, x[~test], y[~test])
            p = predict(model, x[test])
            ece = expected_calibration_error(p, y[test])
            ece_shipped = expected_calibration_error(shipped[test], y[test])
            print(
                f"- {name} (n={int(test.sum())}): AUROC {shown(auc(y[test], p))}"
                f" (installed {shown(auc(y[test], shipped[test]))}), ECE {ece:.3f}"
                f" (installed {ece_shipped:.3f})"
            )


def plain(features: dict[str, float], names: list[str]) -> list[float]:
    """Return the features the map reads, in order."""
    return [float(features.get(n, 0.0)) for n in names]


def apart(features: dict[str, float], names: list[str]) -> list[float]:
    """Return `declined`, then each other feature for an answer, then each for a decline."""
    declined = float(features.get("declined", 0.0))
    rest = [float(features.get(n, 0.0)) for n in names if n != "declined"]
    return [declined, *(v * (1 - declined) for v in rest), *(v * declined for v in rest)]


def shown(value: float | None) -> str:
    """Return an AUROC as printed ('—' when one class is missing)."""
    return "—" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
