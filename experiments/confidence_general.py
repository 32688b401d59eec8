"""Whether confidence separates right from wrong better with the general route read apart.

    python experiments/confidence_general.py handbook=eval-out/hb/results.jsonl \
        squad2=eval-out/pairs/x-squad2/results.jsonl ...

The installed confidence map reads `direct` (answered without documents) as one feature, fitted
when such answers were fallbacks after a failed search, so an answer from general knowledge ("What
is 6 times 7?") is rated as low as those were. Two readings, with no model call, on the answers
`eval run` recorded, against the installed map's on the same answers:

- the general-knowledge judge's probability (core.judges.general) as the confidence of an answer
  from general knowledge: the judge's recorded probability, else its probability from the
  recorded log-probability (a definition of common terms is answered by rule), else from the
  question and answer alone (small talk and sums);
- the map refitted on every run but one with two more features, `general` (answered from general
  knowledge) and `answer_logprob` (the written answer's mean token log-probability), printed on
  the run left out.

Each prints the AUROC of right against wrong and the ECE (10 bins) per run.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from adaptive_rag.core.judges import load_judge
from adaptive_rag.core.judges.general import features as general_features
from adaptive_rag.evaluation.calibrate import expected_calibration_error
from adaptive_rag.evaluation.judge_fit import auc, fit_logistic, predict
from confidence_owned import load, shown


def general(row: dict[str, Any]) -> bool:
    """Whether the answer came from the model's own knowledge (not a decline)."""
    return bool(row["features"]["direct"]) and not row["features"]["declined"]


def judged_general(row: dict[str, Any]) -> float:
    """Return the general-knowledge judge's probability that an answer from it is right."""
    judge = load_judge("general")
    if judge is None:
        raise SystemExit("no general-knowledge judge is installed")
    logprob = None
    for judgment in row["judgments"]:
        if judgment["node"] == "answer_general" and judgment["verdict"] == "general":
            if judgment["method"] == "fitted":
                return float(judgment["score"])
            logprob = judgment["score"]
    answer = row["answer"].split("\n\n")[0]
    values = general_features(row["question"], answer, logprob, row.get("language") == "zh")
    return judge.probability(values)


def extra(row: dict[str, Any]) -> dict[str, float]:
    """Return the recorded features with `general` and `answer_logprob` added."""
    answer = row.get("answer_features") or {}
    logprob = answer.get("answer_logprob")
    known = bool(answer.get("logprob_known")) and not general(row)
    return {
        **row["features"],
        "general": float(general(row)),
        "answer_logprob": float(logprob) if known and logprob is not None else 0.0,
    }


def main() -> None:
    """Print, per run, the installed map's, the judge's and the refit's AUROC and ECE."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="NAME=path/to/results.jsonl")
    rows = load(parser.parse_args().runs)
    installed = load_judge("confidence")
    if installed is None:
        raise SystemExit("no confidence map is installed")
    y = np.array([float(bool(r["acc"])) for r in rows])
    sets = np.array([r["set"] for r in rows])
    shipped = np.array([installed.probability(r["features"]) for r in rows])
    judged = [judged_general(r) if general(r) else s for r, s in zip(rows, shipped, strict=True)]
    by_judge = np.array(judged)
    names = [*installed.features, "general", "answer_logprob"]
    x = np.array([[extra(r).get(n, 0.0) for n in names] for r in rows])
    for name in dict.fromkeys(sets):
        test = sets == name
        refit = predict(fit_logistic("confidence", names, x[~test], y[~test]), x[test])
        figures = [
            f"{label} {shown(auc(y[test], p))} / {expected_calibration_error(p, y[test]):.3f}"
            for label, p in (
                ("installed", shipped[test]),
                ("general by its judge", by_judge[test]),
                ("refit", refit),
            )
        ]
        print(f"- {name} (n={int(test.sum())}), AUROC / ECE: " + "; ".join(figures))


if __name__ == "__main__":
    main()
