"""The filter language: one expression selects exchanges, events and intercepted requests.

pred = compile_filter('hook:gate & method:before_tool & !status:ok')
shown = [record for record in journal if pred(record)]
"""

from inspector.filter.combine import Predicate
from inspector.filter.errors import FilterError
from inspector.filter.parser import compile_filter

__all__ = ["FilterError", "Predicate", "compile_filter"]
