"""Send records to a remote service in fixed-size batches, with progress and a report."""

from bulkupload.batching import batch_count, chunked
from bulkupload.progress import format_progress
from bulkupload.uploader import UploadReport, upload_all

__all__ = ["UploadReport", "batch_count", "chunked", "format_progress", "upload_all"]
