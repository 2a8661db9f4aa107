"""The map-reduce graph: ``plan -> dispatch -(Send)-> workers -> route -> persist -> report``.

* :mod:`app.graph.build` wires the nodes and edges, nothing else;
* :mod:`app.graph.edges` holds the conditional edges: pure functions of state, so LangGraph
  re-derives what runs next after ``update_state``, a fork or a replay;
* :mod:`app.graph.nodes` holds one module per node: module-level functions reading the client's
  choices with ``res.context(runtime)`` (``runtime.context`` over the operator's defaults,
  checked against the operator's bounds) and everything else from the graph's
  :class:`app.graph.resources.Resources`.

Source: LangGraph's map-reduce how-to (``Send``), "Add retry policies", "Durable execution" and
"Time travel".
"""

from app.graph.build import build_graph

__all__ = ["build_graph"]
