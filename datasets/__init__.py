"""Training and data-pipeline scripts for the tile recognizer (torch is only imported here)."""
