"""Templates of the command line's own pages (the replay viewer)."""
