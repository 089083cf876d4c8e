"""Host-device transfers probe: H2D/D2H pageable vs pinned, and a copy/compute/copy pipeline on three streams."""
