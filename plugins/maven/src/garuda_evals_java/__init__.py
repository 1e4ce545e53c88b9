"""garuda-evals-java: the Maven toolchain, the Surefire check runner and the java suite."""

__version__ = "0.1.0"
