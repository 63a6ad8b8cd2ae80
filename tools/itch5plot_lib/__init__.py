"""itch5plot's code: inputs (readers, one-line errors), plots (the figures), cli (flags, output)."""
