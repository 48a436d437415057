"""What the compiler shows a person: `--explain`, `--dump-*` and the `--html`
review page.
"""
