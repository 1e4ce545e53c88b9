from bulkupload import batch_count, chunked, upload_all


class Crm:
    def __init__(self):
        self.received = []

    def send(self, batch):
        self.received.extend(batch)


def test_seven_records_in_batches_of_three():
    assert [len(batch) for batch in chunked(list(range(7)), 3)] == [3, 3, 1]


def test_eleven_records_in_batches_of_five():
    assert batch_count(11, 5) == 3


def test_an_upload_of_seven_sends_every_record():
    report = upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3)
    assert report.sent == 7


def test_the_log_ends_at_the_short_batch():
    lines = []
    upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3, log=lines.append)
    assert lines[-1] == "batch 3/3 (100%)"
