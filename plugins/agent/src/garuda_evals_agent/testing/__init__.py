"""A scripted fake model server on loopback, for tests that drive the real SDK clients."""

from garuda_evals_agent.testing.fake_server import FakeModelServer
from garuda_evals_agent.testing.script import Fault, Reply, Text, Think, Tokens, Use

__all__ = ["FakeModelServer", "Fault", "Reply", "Text", "Think", "Tokens", "Use"]
