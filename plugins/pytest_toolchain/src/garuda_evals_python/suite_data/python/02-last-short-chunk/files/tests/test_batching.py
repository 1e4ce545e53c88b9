import pytest

from bulkupload import batch_count, chunked


def test_exact_multiple():
    assert chunked(list(range(8)), 4) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert batch_count(8, 4) == 2


def test_last_batch_may_be_short():
    assert chunked(list(range(10)), 4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batch_count(10, 4) == 3


def test_fewer_records_than_one_batch():
    assert chunked(["a", "b"], 5) == [["a", "b"]]
    assert batch_count(2, 5) == 1


def test_no_records_no_batches():
    assert chunked([], 3) == []
    assert batch_count(0, 3) == 0


def test_works_on_tuples_and_returns_lists():
    assert chunked(("x", "y", "z"), 2) == [["x", "y"], ["z"]]


@pytest.mark.parametrize("size", [0, -1])
def test_rejects_a_size_below_one(size):
    with pytest.raises(ValueError, match="at least 1"):
        chunked([1, 2, 3], size)
    with pytest.raises(ValueError, match="at least 1"):
        batch_count(3, size)


def test_every_item_exactly_once():
    for total in range(0, 30):
        for size in range(1, 8):
            items = list(range(total))
            batches = chunked(items, size)
            assert [item for batch in batches for item in batch] == items
            assert len(batches) == batch_count(total, size)
            assert all(1 <= len(batch) <= size for batch in batches)
