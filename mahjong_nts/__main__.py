import sys

from mahjong_nts.cli import main

sys.exit(main())
