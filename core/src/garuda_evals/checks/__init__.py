"""Check runners (test-runner adapters) and the protected-file snapshot."""

from garuda_evals.checks.base import CheckPlan, CheckRunner, TestEvidence
from garuda_evals.checks.gotest import GoTestCheckRunner, parse_go_test_json
from garuda_evals.checks.junit import JUnitCheckRunner, read_junit

__all__ = [
    "CheckPlan",
    "CheckRunner",
    "GoTestCheckRunner",
    "JUnitCheckRunner",
    "TestEvidence",
    "parse_go_test_json",
    "read_junit",
]
