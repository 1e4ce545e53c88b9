"""garuda-evals-node: the node toolchain, the node-test check runner, the basic and hard suites."""

__version__ = "0.1.0"
