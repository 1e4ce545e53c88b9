"""garuda-evals-go: the go toolchain, the go-test check runner and the go suite."""
