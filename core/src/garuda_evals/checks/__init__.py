"""Check runners (test-runner adapters) and the protected-file snapshot."""

from garuda_evals.checks.base import CheckPlan, CheckRunner, TestEvidence
from garuda_evals.checks.junit import JUnitCheckRunner, read_junit

__all__ = ["CheckPlan", "CheckRunner", "JUnitCheckRunner", "TestEvidence", "read_junit"]
