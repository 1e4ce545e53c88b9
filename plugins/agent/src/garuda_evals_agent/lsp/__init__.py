"""LSP diagnostics for ``--lsp on`` and ``garuda lsp``."""
