"""`python -m shapeclip`: the `shapeclip` command, for where its script is not on the PATH."""

import sys

from .cli import main

sys.exit(main())
