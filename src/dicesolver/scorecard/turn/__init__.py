"""One turn of a scorecard game: the turn widget (the best keep and box for the values of the states a
turn can end in), in numpy (``widget``) and in the kernels; one turn played for a single box (``oneturn``,
``odds``); the dice stream of a seed."""
