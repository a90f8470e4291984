"""The Runtime: what every model call of every workflow goes through, built once per command.

The CLI builds one :class:`Runtime` from the frozen :class:`~preuve.models.settings.Settings`
(``preuve.commands.common.make_runtime``) and hands it to the workflow. A workflow asks it
for its model with :meth:`Runtime.model`, naming its own rules engine (what ``rules``
means for that workflow); the runtime loads the spec once, whatever the number of
workflows, and wraps it, outermost first:

- :class:`~preuve.models.budget.BudgetedModel`: the input budget of every call, the
  context window (``PREUVE_CONTEXT_WINDOW``, else the model's own, else
  :data:`~preuve.models.budget.DEFAULT_CONTEXT_WINDOW`) less the answer's room;
- :class:`~preuve.models.pool.LimitedModel`: at most ``concurrency`` calls in flight per
  endpoint, across every thread of every workflow of the command;
- :class:`~preuve.models.replay.RecordingModel` when ``PREUVE_RECORD`` names a file;
- :class:`~preuve.models.progress.ProgressModel` for slow backends, unless ``--quiet``.

and, outside them all, the journal: a runtime made by :meth:`Runtime.journaling` records
every call of the models it gives (:class:`~preuve.models.journal.JournaledModel`, the only
place one is built) under its run id, a refusal over budget included. A model shipped to a
remote executor is asked for unjournaled (``journaled=False``); what it answered is
journaled here (:meth:`Runtime.journaled`), or in the worker's own journal by a runtime of
the worker's.

A workflow given a bare :class:`~preuve.models.base.Model` (the Python API, tests) wraps
it with :func:`as_runtime`, so its calls go through a budget all the same.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable

from preuve.models.base import Model, wrapped_models
from preuve.models.budget import DEFAULT_CONTEXT_WINDOW, BudgetedModel, context_window_of
from preuve.models.journal import CallJournal, JournaledModel
from preuve.models.pool import EndpointLimits, LimitedModel
from preuve.models.progress import ProgressModel, ProgressSink
from preuve.models.replay import RecordingModel
from preuve.models.settings import Settings
from preuve.models.spec import (
    API_KEY_ENV_VAR,
    CONTEXT_WINDOW_ENV_VAR,
    SpecKind,
    load_model,
    parse_spec,
)

__all__ = ["SLOW_BACKENDS", "RulesFactory", "Runtime", "RuntimeFactory", "as_runtime"]

RulesFactory = Callable[[], Model]
# Backends whose calls take long enough to deserve a progress line (rules and replay answer
# at once).
SLOW_BACKENDS = frozenset({"hf", "openai"})


class _Loaded:
    """The backend a runtime loads once, shared by the runtimes :meth:`Runtime.journaling`
    derives from it."""

    def __init__(self, backend: Model | None) -> None:
        self.model = backend
        self.lock = threading.Lock()


class Runtime:
    """One command's model calls: the model (loaded once), its budget, the endpoint limit,
    the recorder, the progress sink and the journal; ``settings`` for the rest (store,
    executor)."""

    def __init__(
        self,
        settings: Settings,
        *,
        backend: Model | None = None,
        progress: ProgressSink | None = None,
    ) -> None:
        self.settings = settings
        self.progress = progress
        self.limits = EndpointLimits(settings.concurrency)
        self.journal: CallJournal | None = None
        self.run_id = ""
        self._loaded = _Loaded(backend)

    def journaling(self, journal: CallJournal | None, run_id: str) -> Runtime:
        """This runtime (same backend, limits, recorder and progress) with every call of
        its models recorded in ``journal`` under ``run_id``; itself without a journal."""
        if journal is None:
            return self
        derived = copy.copy(self)
        derived.journal, derived.run_id = journal, run_id
        return derived

    def journaled(self, model: Model) -> Model:
        """``model`` with its calls recorded in this runtime's journal (as it is without
        one, or when this journal already records it)."""
        if self.journal is None or any(
            isinstance(layer, JournaledModel) and layer.journal is self.journal
            for layer in wrapped_models(model)
        ):
            return model
        return JournaledModel(model, self.journal, self.run_id)

    @property
    def concurrency(self) -> int:
        """How many independent calls a workflow may send at once (and the endpoint limit)."""
        return self.settings.concurrency

    def load(self) -> None:
        """Load the model spec now, so that a bad spec or a missing model file fails before
        a command writes anything (``rules`` needs nothing loaded)."""
        loaded = self._loaded
        if loaded.model is None and parse_spec(self.settings.model).kind is not SpecKind.RULES:
            self._base(_no_rules)

    def model(self, rules: RulesFactory, *, journaled: bool = True) -> Model:
        """The model of a workflow whose rules engine ``rules`` builds, wrapped (see the
        module docstring), journaled when this runtime has a journal (unless
        ``journaled=False``: a model to ship to a remote worker). ``rules`` is called only
        when the spec is ``rules``."""
        model = self.wrap(self._base(rules))
        return self.journaled(model) if journaled else model

    def _base(self, rules: RulesFactory) -> Model:
        loaded = self._loaded
        if loaded.model is None and parse_spec(self.settings.model).kind is SpecKind.RULES:
            return rules()  # each workflow its own engine: their versions key their caches
        with loaded.lock:
            if loaded.model is None:
                loaded.model = load_model(self.settings.model, rules=None, env=self._env())
            return loaded.model

    def _env(self) -> dict[str, str]:
        # The backends read their key variable and declared window from here: the
        # settings' values, however the settings were made.
        env = {**self.settings.environ, API_KEY_ENV_VAR: self.settings.api_key_env}
        if self.settings.context_window is not None:
            env[CONTEXT_WINDOW_ENV_VAR] = str(self.settings.context_window)
        return env

    def wrap(self, model: Model) -> Model:
        """``model`` behind this runtime's recorder, progress, limit and budget; a model a
        runtime already wrapped is returned as it is."""
        if any(isinstance(layer, BudgetedModel) for layer in wrapped_models(model)):
            return model
        if self.progress is not None and model.identity.backend in SLOW_BACKENDS:
            model = ProgressModel(model, self.progress)
        if self.settings.record is not None:
            model = RecordingModel(model, self.settings.record)
        window, announce = self._window(model)
        return BudgetedModel(
            LimitedModel(model, self.limits), context_window=window, announce=announce
        )

    def _window(self, model: Model) -> tuple[int, bool]:
        known = [w for w in (self.settings.context_window, context_window_of(model)) if w]
        return (min(known), True) if known else (DEFAULT_CONTEXT_WINDOW, False)


def _no_rules() -> Model:
    raise AssertionError("the rules engine is never built for another spec")


RuntimeFactory = Callable[[Settings], Runtime]


def as_runtime(given: Runtime | Model) -> Runtime:
    """``given`` when it is a runtime; else a runtime of default settings around the model
    (every workflow's entry point calls this, so every call has a budget)."""
    return given if isinstance(given, Runtime) else Runtime(Settings(), backend=given)
