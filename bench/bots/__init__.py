"""Rule bots the benchmarks play against (library modules, not scripts)."""
