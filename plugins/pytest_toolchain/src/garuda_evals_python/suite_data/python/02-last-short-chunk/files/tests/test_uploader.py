from bulkupload import format_progress, upload_all


class FakeCrm:
    def __init__(self, fail_on=()):
        self.received = []
        self.calls = 0
        self.fail_on = set(fail_on)

    def send(self, batch):
        self.calls += 1
        if self.calls in self.fail_on:
            raise ConnectionError("CRM unavailable")
        self.received.extend(batch)


def records(n):
    return [{"id": i, "email": f"user{i}@example.com"} for i in range(n)]


def test_all_records_arrive():
    crm = FakeCrm()
    report = upload_all(records(10), crm, batch_size=4)
    assert [r["id"] for r in crm.received] == list(range(10))
    assert report.sent == 10
    assert report.batches == 3
    assert report.ok


def test_progress_counts_the_last_batch():
    lines = []
    upload_all(records(10), FakeCrm(), batch_size=4, log=lines.append)
    assert lines == ["batch 1/3 (33%)", "batch 2/3 (66%)", "batch 3/3 (100%)"]


def test_a_failed_batch_is_reported_and_the_rest_is_sent():
    crm = FakeCrm(fail_on={3})
    report = upload_all(records(9), crm, batch_size=4)
    assert report.failed_batches == [3]
    assert report.sent == 8
    assert not report.ok


def test_exact_multiple_still_works():
    lines = []
    report = upload_all(records(8), FakeCrm(), batch_size=4, log=lines.append)
    assert report.sent == 8
    assert lines[-1] == "batch 2/2 (100%)"


def test_format_progress():
    assert format_progress(1, 4) == "batch 1/4 (25%)"
    assert format_progress(0, 0) == "batch 0/0 (100%)"
