"""garuda-evals-sandbox: shared parts of the OS sandbox backends and ``garuda sandbox check``."""
