"""One scrubber for every secret value: API keys never reach a file, a log or an error.

A model endpoint can echo what it was sent, on purpose or not: the key in the answer, in
upper case, base64-encoded (a ``Basic`` header), percent-encoded or in hex. :class:`Scrubber`
replaces each of these forms by ``[REDACTED]``; the same object serves the model
boundary (:class:`ScrubbingModel`, which every backend built from a spec is wrapped in),
the journal, recordings, the viewer and the one-line errors of the CLI, so every artefact
is cleaned by the same rules.

Which values are secret: the ones a backend declares (``secret_values``: its API key, a
credential found in its URL) and the values of environment variables named like a
secret (``*_KEY``, ``*_TOKEN``, ``*_SECRET``, ``*_PASSWORD``, ...), plus the variable
``PREUVE_API_KEY_ENV`` names. Values shorter than :data:`MIN_SECRET_LENGTH` are ignored:
they would scrub ordinary words.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
from collections.abc import Iterable, Mapping
from urllib.parse import quote

from preuve.core.errors import ModelError, PreuveError
from preuve.models.base import Completion, Model, ModelIdentity, Request

__all__ = [
    "MIN_SECRET_LENGTH",
    "REDACTED",
    "SECRET_NAME",
    "Scrubber",
    "ScrubbingModel",
    "echo_forms",
    "environment_secrets",
]

REDACTED = "[REDACTED]"
MIN_SECRET_LENGTH = 8
# Environment variables whose values are secrets, e.g. OPENAI_API_KEY, HF_TOKEN.
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$", re.IGNORECASE)
_KEY_ENV_VAR = "PREUVE_API_KEY_ENV"


def _base64_fragments(raw: bytes) -> list[str]:
    """The part of the base64 of ``raw`` that shows whatever precedes it in the encoded
    text: one fragment per alignment (0, 1 or 2 bytes before it), standard and URL-safe."""
    fragments = []
    for before in range(3):
        encoded = base64.b64encode(b"\0" * before + raw).decode("ascii")
        skip = (0, 2, 3)[before]
        fragment = encoded[skip : 4 * ((before + len(raw)) // 3)]
        fragments += [fragment, fragment.translate(str.maketrans("+/", "-_"))]
    return fragments


def echo_forms(secret: str) -> tuple[str, ...]:
    """Every form of ``secret`` the scrubber looks for (case aside: matching ignores it)."""
    raw = secret.encode("utf-8")
    forms = [secret, quote(secret, safe=""), binascii.hexlify(raw).decode("ascii")]
    forms += _base64_fragments(raw)
    return tuple(dict.fromkeys(f for f in forms if len(f) >= MIN_SECRET_LENGTH))


def _pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    forms = {form for secret in secrets for form in echo_forms(secret)}
    if not forms:
        return None
    # Longest first, so that a form is replaced whole rather than a shorter one inside it.
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(alternatives, re.IGNORECASE)


@dataclasses.dataclass(frozen=True, slots=True)
class Scrubber:
    """Replaces every known secret, in every echo form, by ``[REDACTED]``."""

    secrets: tuple[str, ...] = ()
    _compiled: re.Pattern[str] | None = dataclasses.field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        kept = tuple(dict.fromkeys(s for s in self.secrets if len(s) >= MIN_SECRET_LENGTH))
        object.__setattr__(self, "secrets", kept)
        object.__setattr__(self, "_compiled", _pattern(kept))

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def plus(self, secrets: Iterable[str]) -> Scrubber:
        return Scrubber((*self.secrets, *secrets))

    def scrub(self, text: str) -> str:
        pattern = self._compiled
        return text if pattern is None else pattern.sub(REDACTED, text)

    def found(self, text: str) -> tuple[str, ...]:
        """The echoes of a secret in ``text`` (as they appear), for a check to report."""
        pattern = self._compiled
        return () if pattern is None else tuple(m.group() for m in pattern.finditer(text))

    def error(self, err: PreuveError) -> PreuveError:
        """``err`` with its message and fix scrubbed (the same class, the same exit code)."""
        message, fix = self.scrub(err.message), err.fix and self.scrub(err.fix)
        if message == err.message and fix == err.fix:
            return err
        clean = type(err).__new__(type(err))
        clean.__dict__.update(err.__dict__)
        PreuveError.__init__(clean, message, fix=fix)
        return clean


def environment_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """Values of secret-looking variables, and of the one ``PREUVE_API_KEY_ENV`` names."""
    named = environ.get(_KEY_ENV_VAR, "")
    return tuple(
        value
        for name, value in environ.items()
        if (SECRET_NAME.search(name) or (named and name == named))
        and len(value) >= MIN_SECRET_LENGTH
    )


class ScrubbingModel:
    """The model boundary: every answer, error and identity that comes out of ``inner`` is
    scrubbed, so nothing downstream (run files, stores, journals, recordings) sees a key."""

    def __init__(self, inner: Model, scrubber: Scrubber) -> None:
        self.inner = inner
        self.scrubber = scrubber.plus(getattr(inner, "secret_values", ()))
        identity = inner.identity
        self._identity = ModelIdentity(
            identity.backend,
            self.scrubber.scrub(identity.name),
            self.scrubber.scrub(identity.tokenizer),
            self.scrubber.scrub(identity.version),
        )

    @property
    def identity(self) -> ModelIdentity:
        return self._identity

    @property
    def secret_values(self) -> tuple[str, ...]:
        return self.scrubber.secrets

    def complete(self, request: Request) -> Completion:
        try:
            completion = self.inner.complete(request)
        except PreuveError as err:
            raise self.scrubber.error(err) from None
        except Exception as err:  # a backend bug: its message may quote what it was sent
            raise ModelError(self.scrubber.scrub(f"{type(err).__name__}: {err}")[:300]) from None
        text = self.scrubber.scrub(completion.text)
        return completion if text == completion.text else dataclasses.replace(completion, text=text)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
