from bulkupload import batch_count, chunked, upload_all


class Crm:
    def __init__(self):
        self.received = []

    def send(self, batch):
        self.received.extend(batch)


def test_seven_records_in_batches_of_three_a():
    assert [len(batch) for batch in chunked(list(range(7)), 3)] == [3, 2, 2]


def test_seven_records_in_batches_of_three_b():
    assert [len(batch) for batch in chunked(list(range(7)), 3)] == [3, 3, 1, 0]


def test_eleven_records_in_batches_of_five_a():
    assert batch_count(11, 5) == 4


def test_eleven_records_in_batches_of_five_b():
    assert batch_count(11, 5) == 1


def test_an_upload_of_seven_sends_every_record_a():
    report = upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3)
    assert report.sent == 9


def test_an_upload_of_seven_sends_every_record_b():
    report = upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3)
    assert report.sent == 3


def test_the_log_ends_at_the_short_batch_a():
    lines = []
    upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3, log=lines.append)
    assert lines[-1] == "batch 3/4 (75%)"


def test_the_log_ends_at_the_short_batch_b():
    lines = []
    upload_all([{"id": n} for n in range(7)], Crm(), batch_size=3, log=lines.append)
    assert lines[-1] == "batch 2/3 (66%)"
