"""The classroom: the progress store and its database, classes, the live puzzle, homework and downloads."""
