"""The Message Batches side of the fake server: batches of one, ended after a few polls."""

from __future__ import annotations

import json
import threading
from typing import Any

from garuda_evals_agent.testing import anthropic_fake
from garuda_evals_agent.testing.script import Fault, Reply


class FakeBatches:
    """Batches by id; each holds the scripted item its request was answered with."""

    def __init__(self, polls_to_end: int) -> None:
        self.polls_to_end = polls_to_end
        self.batches: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def create(self, body: dict[str, Any], item: Reply | Fault | None) -> str:
        """Record a new batch of the body's first request; return its id."""
        request = (body.get("requests") or [{}])[0]
        with self.lock:
            batch_id = f"msgbatch_{len(self.batches) + 1:04d}"
            self.batches[batch_id] = {
                "custom_id": request.get("custom_id"),
                "params": request.get("params") or {},
                "item": item,
                "polls": 0,
            }
        return batch_id

    def status(self, batch_id: str, base_url: str, *, poll: bool = False) -> dict[str, Any]:
        """The MessageBatch object; a poll counts toward ending it."""
        with self.lock:
            batch = self.batches.setdefault(batch_id, {"polls": 0, "item": None})
            if poll:
                batch["polls"] += 1
            ended = batch["polls"] >= self.polls_to_end
        url = f"{base_url}/v1/messages/batches/{batch_id}/results"
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else 1,
                "succeeded": 1 if ended else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T00:01:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": url if ended else None,
        }

    def results(self, batch_id: str) -> bytes:
        """The results file (JSON lines): the message, or an errored result for a Fault."""
        batch = self.batches[batch_id]
        item = batch["item"]
        if isinstance(item, Reply):
            model = batch["params"].get("model", "")
            message = anthropic_fake.message_json(item, model, f"msg_{batch_id}")
            result: dict[str, Any] = {"type": "succeeded", "message": message}
        else:
            kind = item.error_type if isinstance(item, Fault) else "invalid_request_error"
            result = {"type": "errored", "error": anthropic_fake.error_json(kind, "fake fault")}
        return (json.dumps({"custom_id": batch["custom_id"], "result": result}) + "\n").encode()
