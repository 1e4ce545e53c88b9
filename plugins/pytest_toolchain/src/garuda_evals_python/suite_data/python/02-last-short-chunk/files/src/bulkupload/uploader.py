"""Upload records batch by batch; a failed batch is reported, not fatal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bulkupload.batching import batch_count, chunked
from bulkupload.progress import format_progress

Record = dict[str, Any]


class Client(Protocol):
    """What the uploader needs from the remote service."""

    def send(self, batch: list[Record]) -> None: ...


@dataclass
class UploadReport:
    """What happened: batches tried, records sent, the numbers of the batches that failed."""

    batches: int = 0
    sent: int = 0
    failed_batches: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed_batches


def upload_all(
    records: Sequence[Record],
    client: Client,
    batch_size: int = 100,
    log: Callable[[str], None] | None = None,
) -> UploadReport:
    """Send every record; a ConnectionError fails one batch and the upload goes on."""
    total = batch_count(len(records), batch_size)
    report = UploadReport()
    for number, batch in enumerate(chunked(records, batch_size), start=1):
        report.batches += 1
        try:
            client.send(batch)
        except ConnectionError:
            report.failed_batches.append(number)
        else:
            report.sent += len(batch)
        if log is not None:
            log(format_progress(number, total))
    return report
