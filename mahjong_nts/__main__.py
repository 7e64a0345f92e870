import sys

from mahjong_nts.cli.main import main

sys.exit(main())
