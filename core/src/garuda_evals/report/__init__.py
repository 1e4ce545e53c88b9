"""The report: summary arithmetic and formatters."""
