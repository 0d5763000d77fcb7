"""The values that the whole package and its commands share, with nothing to import.

Everything inside the package reads them from here, never from `shapeclip/__init__.py`, which
only re-exports them: the facade sits above every module, so importing it from below would
close a circle. The command line and the hooks read them without loading the compressor.
"""

from __future__ import annotations

#: The package's version (`shapeclip.__version__`).
VERSION = "0.1.0"
#: The budget, in characters, of a call that gives none, and the default `--budget`.
DEFAULT_BUDGET = 16_000
#: Seconds a digest gets (`shapeclip.digest.DEFAULT_TIMEOUT`), and the default `--digest-timeout`.
DEFAULT_DIGEST_TIMEOUT = 10.0
