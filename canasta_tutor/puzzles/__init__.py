"""Puzzles: the puzzle file format, the kinds of puzzle, solving, generating, practice and worksheets."""
