"""One rule module per concern, each exposing `decide_<concern>(context) -> ConcernDecision`."""
