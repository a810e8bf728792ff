"""The review's checks, by topic. Each takes the `Evidence` of a simulated
design and yields `Finding`s."""
