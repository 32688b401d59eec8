"""Earlier answers in the PostgreSQL store: a table beside the collection's chunks.

Each write's transaction deletes the answers of older revisions, so an answer is found only at
the revision it was given at (knowledge.answer_cache.Answers).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from adaptive_rag.knowledge.answer_cache import Recalled, answer_key
from adaptive_rag.knowledge.postgres.database import Database
from adaptive_rag.knowledge.postgres.schema import Tables


class PostgresAnswers:
    """Answers keyed by question and settings, valid for one revision and a TTL."""

    def __init__(
        self, db: Database, tables: Tables, registry: Callable[[], tuple[int, int, int]]
    ) -> None:
        self._db, self._t, self._registry = db, tables, registry

    def find(self, question: str, scope: str, revision: int) -> Recalled | None:
        """Return the stored answer to this question at this revision, unless it expired."""
        rows = self._db.rows(
            f"SELECT output, question FROM {self._t.answers}"
            " WHERE key = %s AND revision = %s AND expires > %s",
            (answer_key(question, scope), revision, time.time()),
        )
        return Recalled(dict(rows[0][0]), str(rows[0][1])) if rows else None

    def put(
        self, question: str, scope: str, revision: int, output: dict[str, Any], ttl: float
    ) -> None:
        """Keep an answer for `ttl` seconds, or until the knowledge base changes.

        An answer given at a revision a write has since moved past is not kept.
        """
        if revision != self._registry()[0]:
            return
        with self._db.connection() as conn:
            conn.execute(
                f"INSERT INTO {self._t.answers} (key, revision, expires, question, output)"
                " VALUES (%s, %s, %s, %s, %s::jsonb) ON CONFLICT (key) DO UPDATE SET"
                " revision = excluded.revision, expires = excluded.expires,"
                " question = excluded.question, output = excluded.output",
                (
                    answer_key(question, scope),
                    revision,
                    time.time() + ttl,
                    question,
                    json.dumps(output, ensure_ascii=False),
                ),
            )

    def clear(self) -> None:
        """Forget every answer."""
        with self._db.connection() as conn:
            conn.execute(f"DELETE FROM {self._t.answers}")
