"""The `batch` run: photos in a folder -> readings -> hands -> scores, kept in a durable record and written
as CSV, JSON Lines and an HTML report. The command's options live in `mahjong_nts.cli.batch`."""
