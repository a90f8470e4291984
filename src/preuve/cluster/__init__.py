"""Where work runs: threads here (``local``) or tasks on a Ray cluster (``ray[:ADDRESS]``)."""

from preuve.cluster.executor import Executor, LocalExecutor, make_executor, parse_executor

__all__ = ["Executor", "LocalExecutor", "make_executor", "parse_executor"]
