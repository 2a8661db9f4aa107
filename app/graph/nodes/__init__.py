"""The research graph's nodes, one concept per module. Each is a module-level function
``node(state, [config,] runtime, *, res, ...)``; :func:`app.graph.build.build_graph` binds the
keyword arguments (the graph's :class:`app.graph.resources.Resources` and its worker names) with
``functools.partial``: LangGraph still sees ``runtime`` and ``config`` in the signature.
"""
