import sys

from cardcanon.cli import main

sys.exit(main())
