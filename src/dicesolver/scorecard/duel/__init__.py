"""The exact two-person judge: the equity table solved level by level (in memory, out of core or on dask),
its answer engine, what it says about strategy (``facts``), exact comparisons of two players (``compare``)
and Malina, the player that reads it."""
