"""Hot operators: the top-10 operators of a reference (or the user's) model by self time, grouped by concern."""
