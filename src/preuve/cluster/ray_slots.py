"""Endpoint slots on a Ray cluster: tokens granted by one actor, kept by the processes.

A call to a model endpoint needs a slot, and the cluster may have at most
``per_endpoint`` calls in flight on each endpoint. Asking one actor for every call (an
acquire and a release: two messages, 2.5-4 ms of the actor's CPU per call here) made that
actor the ceiling of the cluster's calls per second. Here the actor grants **tokens**,
and a process keeps the tokens it was granted while its threads need them:

- :class:`_Slots` (one async actor per limit, named, so every worker and every driver on
  the cluster shares it) counts the tokens granted on each endpoint, never more than
  ``per_endpoint``, to **holders** (one per :class:`RaySlots` copy in a process). A
  request asks for as many tokens as the holder has threads waiting, and gets what is
  free at once (at least one, or it waits in arrival order), each on the least granted
  endpoint it names. Each answer tells the holder how many tokens it may keep on each
  endpoint that others wait for: its **share** (the limit divided among the holders
  that hold or wait there, rounded up; rounded down while a waiting one holds none
  there, so that one gets a token even when the holders outnumber the limit).
- :class:`RaySlots` (picklable: the actor's handle; each process that unpickles it is a
  new holder) hands its free tokens to its own threads with no message at all; threads
  that find none send one request for all of them, and meanwhile take any token a
  neighbour frees. A token goes back to the actor at its release when the holder has
  more than its share there, and when it has been free (a grant no thread took, or a
  token its threads stopped using) for ``idle_seconds`` where another holder waits, one
  poll where none does. Every ``poll_seconds``
  while it holds or waits, a holder renews its lease and learns its shares: a process
  with endless work gives up its excess within about one poll and one call, so nobody
  waits for ever; one that shares with no one sends nothing else.

Why the limit is exact: a thread calls only while holding a token; a token is one unit of
the actor's count on its endpoint until the actor takes it back; the actor takes it back
only on a release (sent after the holder stopped using it) or on the holder's lease
expiry. A holder's lease runs ``lease_seconds`` from the actor's receipt of its last
message; counting from when it *sent* its last answered message (never later than that
receipt), the holder starts no call on a token once its lease may have run out: it drops
its tokens and asks again as a new holder. A process that was killed stops renewing; its
tokens, and those granted to its pending request, are free again when its lease expires.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ray

__all__ = ["IDLE_SECONDS", "LEASE_SECONDS", "POLL_SECONDS", "RaySlots", "slots_actor"]

# A holder that sent nothing for this long (its process died) loses its tokens.
LEASE_SECONDS = 30.0
# A free token a process did not use for this long goes back to the actor.
IDLE_SECONDS = 0.05
# How often a holder renews its lease and learns its shares while it holds or waits.
POLL_SECONDS = 1.0
_EXPIRE_EVERY = 1.0

# Tokens a holder may keep on each pool of endpoints (replicas) others wait for; a pool
# absent has no bound.
Shares = dict[tuple[str, ...], int]


@dataclass(slots=True)
class _Holding:
    deadline: float
    tokens: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class _Request:
    holder: str
    endpoints: list[str]
    want: int
    answer: asyncio.Future[tuple[list[int], Shares]]


@ray.remote(num_cpus=0)
class _Slots:
    """Tokens granted per endpoint, cluster-wide, to holders whose leases expire.

    Every method runs on the actor's one event loop, so no lock.
    """

    def __init__(self, per_endpoint: int, lease_seconds: float) -> None:
        self.per_endpoint = per_endpoint
        self.lease_seconds = lease_seconds
        self.granted: dict[str, int] = {}
        self.holders: dict[str, _Holding] = {}
        self.waiting: deque[_Request] = deque()
        self.expired_at = time.monotonic()
        self.messages = {"acquire": 0, "release": 0, "renew": 0}

    def _touch(self, holder: str) -> _Holding:
        deadline = time.monotonic() + self.lease_seconds
        held = self.holders.get(holder)
        if held is None:
            held = self.holders[holder] = _Holding(deadline)
        held.deadline = deadline
        return held

    def _give_back(self, held: _Holding, endpoint: str, count: int) -> None:
        count = min(count, held.tokens.get(endpoint, 0))
        if count > 0:
            held.tokens[endpoint] -= count
            self.granted[endpoint] -= count

    def _expire(self) -> None:
        now = time.monotonic()
        self.expired_at = now
        for holder, held in list(self.holders.items()):
            if held.deadline < now:
                for endpoint, count in list(held.tokens.items()):
                    self._give_back(held, endpoint, count)
                del self.holders[holder]
        self._grant()

    def _shares(self, holder: str) -> Shares:
        """What ``holder`` may keep on each pool of endpoints another holder waits for.

        A pool's tokens are interchangeable (its endpoints serve one model), so its share
        is counted over the pool: ``per_endpoint`` times its endpoints, divided among the
        holders waiting on it or holding a token on it, rounded up; rounded down while a
        waiting one holds none there, so that one gets a token."""
        waiters: dict[tuple[str, ...], set[str]] = {}
        for request in self.waiting:
            if not request.answer.done():
                waiters.setdefault(tuple(request.endpoints), set()).add(request.holder)
        shares: Shares = {}
        for pool, waiting in waiters.items():
            others = waiting - {holder}
            if not others:
                continue
            holding = {h for h, held in self.holders.items() if self._in(held, pool)}
            sharing = len(waiting | holding | {holder})
            tokens = self.per_endpoint * len(pool)
            starved = any(h in self.holders and not self._in(self.holders[h], pool) for h in others)
            shares[pool] = tokens // sharing if starved else math.ceil(tokens / sharing)
        return shares

    @staticmethod
    def _in(held: _Holding, pool: tuple[str, ...]) -> int:
        return sum(held.tokens.get(e, 0) for e in pool)

    def _take(self, holder: str, endpoints: list[str], want: int) -> list[int]:
        """Up to ``want`` tokens for ``holder``, each on the least granted endpoint."""
        held = self.holders.get(holder)
        if held is None:  # its lease ran out while it waited: it will never use a grant
            return []
        taken: list[int] = []
        while len(taken) < want:
            loads = [self.granted.get(e, 0) for e in endpoints]
            index = min(range(len(endpoints)), key=lambda i: loads[i])
            if loads[index] >= self.per_endpoint:
                break
            endpoint = endpoints[index]
            self.granted[endpoint] = loads[index] + 1
            held.tokens[endpoint] = held.tokens.get(endpoint, 0) + 1
            taken.append(index)
        return taken

    def _grant(self) -> None:
        kept: deque[_Request] = deque()
        answered: list[_Request] = []
        for request in self.waiting:
            if request.answer.done():
                continue
            if request.holder not in self.holders:
                request.answer.cancel()
                continue
            taken = self._take(request.holder, request.endpoints, request.want)
            if taken:
                answered.append(request)
                request.answer.set_result((taken, {}))
            else:
                kept.append(request)
        self.waiting = kept
        for request in answered:  # the shares once the queue is what it now is
            _, shares = request.answer.result()
            shares.update(self._shares(request.holder))

    async def acquire(
        self, holder: str, endpoints: list[str], want: int = 1
    ) -> tuple[list[int], Shares]:
        """At least one and up to ``want`` tokens for ``holder``, each on the least granted
        of ``endpoints``: their indices (none: the holder's lease ran out while it waited),
        and the holder's shares. A request waits behind the earlier ones it fits beside."""
        self.messages["acquire"] += 1
        if time.monotonic() - self.expired_at > _EXPIRE_EVERY:
            self._expire()
        self._touch(holder)
        taken = [] if self.waiting else self._take(holder, endpoints, max(1, want))
        if taken:
            return taken, self._shares(holder)
        answer: asyncio.Future[tuple[list[int], Shares]]
        answer = asyncio.get_running_loop().create_future()
        self.waiting.append(_Request(holder, endpoints, max(1, want), answer))
        while True:
            # The timeout lets the tokens of a holder that died be reclaimed.
            done, _ = await asyncio.wait({answer}, timeout=_EXPIRE_EVERY)
            if done:  # cancelled: the holder's lease ran out while it waited
                return ([], {}) if answer.cancelled() else answer.result()
            self._expire()

    async def release(self, holder: str, counts: dict[str, int]) -> None:
        """``holder`` gives back ``counts`` tokens per endpoint."""
        self.messages["release"] += 1
        held = self.holders.get(holder)
        if held is None:  # expired: its tokens were taken back already
            return
        held.deadline = time.monotonic() + self.lease_seconds
        for endpoint, count in counts.items():
            self._give_back(held, endpoint, count)
        self._grant()

    async def renew(self, holder: str) -> tuple[bool, Shares]:
        """Extend ``holder``'s lease (False: it had expired, its tokens are gone); its
        shares."""
        self.messages["renew"] += 1
        if holder not in self.holders:
            return False, {}
        self._touch(holder)
        return True, self._shares(holder)

    async def in_flight(self) -> dict[str, int]:
        """Tokens granted per endpoint (at least the calls in flight on each)."""
        return dict(self.granted)

    async def lease(self) -> float:
        """How long a holder keeps its tokens after its last message."""
        return self.lease_seconds

    async def stats(self) -> dict[str, int]:
        """Messages received, by kind, since the actor started."""
        return dict(self.messages)


def slots_actor(name: str, namespace: str, per_endpoint: int, lease_seconds: float) -> Any:
    """The cluster's slots actor ``name`` (created by the first caller); no task events
    (Ray's record of every message's states, shipped to the head: read by nothing here)."""
    return _Slots.options(  # type: ignore[attr-defined]
        name=name,
        namespace=namespace,
        get_if_exists=True,
        lifetime=None,
        enable_task_events=False,
    ).remote(per_endpoint, lease_seconds)


@dataclass(slots=True)
class _Lease:
    endpoint: str
    holder: str


class RaySlots:
    """Endpoint slots granted by a :class:`_Slots` actor, kept by this process's threads.

    Picklable (the actor's handle and the timings); every unpickled copy is a holder of
    its own.
    """

    def __init__(
        self,
        actor: Any,
        *,
        lease_seconds: float = LEASE_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.actor = actor
        self.lease_seconds = lease_seconds
        self.idle_seconds = idle_seconds
        self.poll_seconds = poll_seconds
        self._local()

    def _local(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a token freed or granted
        self._tick = threading.Condition(self._lock)  # the keeper has something sooner
        self._holder = uuid.uuid4().hex
        self._valid_until = 0.0  # no call starts on a token after this (this clock)
        self._held: dict[str, int] = {}  # tokens of this holder, free or in use
        self._shares: Shares = {}  # as the actor last said
        self._free: dict[str, deque[float]] = {}  # when each free token was freed
        self._busy: dict[int, _Lease] = {}
        self._busy_on: dict[str, int] = {}
        self._waiting: dict[tuple[str, ...], int] = {}  # threads waiting, by endpoints
        self._asking: set[tuple[str, ...]] = set()  # those with a request out
        self._ids = itertools.count(1)
        self._keeper: threading.Thread | None = None
        self._keeper_wakes = float("inf")
        self._renewing = False
        self._contact = 0.0  # when this holder last sent a message the actor answers
        self._error: BaseException | None = None
        self._outbox: list[Callable[[], None]] = []  # messages to send, lock released

    def __getstate__(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "lease_seconds": self.lease_seconds,
            "idle_seconds": self.idle_seconds,
            "poll_seconds": self.poll_seconds,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.actor = state["actor"]
        self.lease_seconds = state["lease_seconds"]
        self.idle_seconds = state["idle_seconds"]
        self.poll_seconds = state["poll_seconds"]
        self._local()

    # -- the threads' side -------------------------------------------------------------

    def acquire(self, endpoints: Sequence[str]) -> tuple[int, int]:
        if not endpoints:
            raise ValueError("acquire needs at least one endpoint")
        key = tuple(endpoints)
        with self._lock:
            self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            while True:
                with self._lock:
                    if self._error is not None:
                        raise self._error
                    if time.monotonic() >= self._valid_until and self._held:
                        self._new_holder()
                    taken = self._take_free(key)
                    if taken is None and key not in self._asking:
                        self._ask(key)
                    sends, self._outbox = self._outbox, []
                    if taken is None and not sends:
                        self._changed.wait()
                self._send(sends)
                if taken is not None:
                    return taken
        finally:
            with self._lock:
                self._waiting[key] -= 1
                if any(self._free.values()):  # left for no one now: back when idle
                    self._wake_keeper(time.monotonic() + self.idle_seconds)

    def release(self, lease: int) -> None:
        with self._lock:
            held = self._busy.pop(lease, None)
            if held is None:
                return
            endpoint = held.endpoint
            self._busy_on[endpoint] -= 1
            if held.holder != self._holder:  # dropped with an expired lease
                return
            now = time.monotonic()
            over = any(self._over(pool) > 0 for pool in self._shares if endpoint in pool)
            if over or now >= self._valid_until:
                self._give_back({endpoint: 1})
            else:
                self._free.setdefault(endpoint, deque()).append(now)
                self._changed.notify_all()
                self._wake_keeper(now + self._idle_for(endpoint))
            sends, self._outbox = self._outbox, []
        self._send(sends)

    @staticmethod
    def _send(sends: list[Callable[[], None]]) -> None:
        # Messages go out with the lock released: a Ray call never waits on our lock.
        for send in sends:
            send()

    def _take_free(self, key: tuple[str, ...]) -> tuple[int, int] | None:
        usable = [i for i, e in enumerate(key) if self._free.get(e)]
        if not usable:
            return None
        index = min(usable, key=lambda i: self._busy_on.get(key[i], 0))
        endpoint = key[index]
        self._free[endpoint].pop()  # the most recently freed
        lease = next(self._ids)
        self._busy[lease] = _Lease(endpoint, self._holder)
        self._busy_on[endpoint] = self._busy_on.get(endpoint, 0) + 1
        return index, lease

    def _ask(self, key: tuple[str, ...]) -> None:
        """A request at the actor for as many tokens on ``key`` as threads wait for them
        (lock held; one request at a time per ``key``)."""
        self._asking.add(key)
        holder, want = self._holder, self._waiting[key]

        def send() -> None:
            sent = self._contact = time.monotonic()
            ref = self.actor.acquire.remote(holder, list(key), want)
            ref.future().add_done_callback(lambda done: self._granted(key, holder, sent, done))

        self._outbox.append(send)

    def _granted(self, key: tuple[str, ...], holder: str, sent: float, done: Any) -> None:
        """A request's answer, on one of Ray's threads: no Ray call here."""
        with self._lock:
            self._asking.discard(key)
            self._changed.notify_all()  # the waiters take what came, or ask again
            try:
                raw, shares = done.result()
                indices = [int(i) for i in raw]
            except BaseException as err:  # the actor is gone: every waiter hears it
                self._error = err
                return
            now = time.monotonic()
            if not indices:  # our lease ran out while we waited: ask again, afresh
                if holder == self._holder:
                    self._new_holder()
                    self._wake_keeper(now)
                return
            counts: dict[str, int] = {}
            for index in indices:
                counts[key[index]] = counts.get(key[index], 0) + 1
            if holder != self._holder:  # granted to a holder this process dropped
                self._outbox.append(lambda: self.actor.release.remote(holder, counts))
                self._wake_keeper(now)
                return
            self._valid_until = max(self._valid_until, sent + self.lease_seconds)
            self._shares = {tuple(pool): int(n) for pool, n in shares.items()}
            for endpoint, count in counts.items():
                self._held[endpoint] = self._held.get(endpoint, 0) + count
                self._free.setdefault(endpoint, deque()).extend([now] * count)
            # What no thread takes goes back once idle (_idle_for).
            self._wake_keeper(now + self.idle_seconds)

    # -- giving back, renewing (lock held) -----------------------------------------------

    def _give_back(self, counts: dict[str, int]) -> None:
        for endpoint, count in counts.items():
            self._held[endpoint] -= count
            if self._held[endpoint] == 0:
                del self._held[endpoint]
        holder = self._holder
        # Not waited for: a release the actor handles late only delays a grant.
        self._outbox.append(lambda: self.actor.release.remote(holder, counts))

    def _new_holder(self) -> None:
        """Our lease may have run out: forget every token, ask again as a new holder."""
        free = {e: len(q) for e, q in self._free.items() if q}
        old = self._holder
        if free:  # in case the actor still counts them
            self._outbox.append(lambda: self.actor.release.remote(old, free))
        self._holder = uuid.uuid4().hex
        self._held, self._free, self._shares = {}, {}, {}

    def _poll_at(self) -> float:
        """When to renew: ``poll_seconds`` (at most a third of a lease) after the last
        message, and while holding tokens, before the lease counted here runs out."""
        at = self._contact + min(self.poll_seconds, self.lease_seconds / 3)
        if self._held:
            at = min(at, self._valid_until - self.lease_seconds * 2 / 3)
        return at

    def _wake_keeper(self, at: float) -> None:
        if self._keeper is None:
            self._keeper_wakes = at
            self._keeper = threading.Thread(
                target=self._keep, name="preuve-slots-keeper", daemon=True
            )
            self._keeper.start()
        elif at < self._keeper_wakes:
            self._keeper_wakes = at
            self._tick.notify()

    def _over(self, pool: tuple[str, ...]) -> int:
        """How many tokens on ``pool`` this holder holds beyond its share."""
        return sum(self._held.get(e, 0) for e in pool) - self._shares[pool]

    def _surplus(self, now: float) -> dict[str, int]:
        """Free tokens to give back: beyond a share (the most held endpoints' first), or
        idle with no thread waiting."""
        surplus: dict[str, int] = {}
        for pool in self._shares:
            over = self._over(pool)
            while over > 0:
                free = [e for e in pool if self._free.get(e)]
                if not free:
                    break
                endpoint = max(free, key=lambda e: self._held.get(e, 0) - surplus.get(e, 0))
                self._free[endpoint].popleft()
                surplus[endpoint] = surplus.get(endpoint, 0) + 1
                over -= 1
        wanted = {e for k, n in self._waiting.items() if n > 0 for e in k}
        for endpoint, queue in self._free.items():
            if endpoint in wanted:
                continue
            idle = self._idle_for(endpoint)
            while queue and now - queue[0] >= idle:
                queue.popleft()
                surplus[endpoint] = surplus.get(endpoint, 0) + 1
        return surplus

    def _idle_for(self, endpoint: str) -> float:
        """How long a free token may stay unused: ``idle_seconds`` where another holder
        waits, a poll where none does (the next poll says if one starts to)."""
        if any(endpoint in pool for pool in self._shares):
            return self.idle_seconds
        return max(self.idle_seconds, self.poll_seconds)

    def _keep(self) -> None:
        """Sends what callbacks left, gives back surplus tokens, renews the lease while
        holding or waiting; ends when this holder holds and asks nothing."""
        while True:
            with self._lock:
                now = time.monotonic()
                surplus = self._surplus(now)
                if surplus:
                    self._give_back(surplus)
                active = bool(self._held or self._asking)
                if active and now >= self._poll_at() and not self._renewing:
                    self._renew()
                sends, self._outbox = self._outbox, []
                if not sends and not active:
                    self._keeper = None
                    return
                if not sends:
                    wanted = {e for k, n in self._waiting.items() if n > 0 for e in k}
                    idle = [
                        q[0] + self._idle_for(e)
                        for e, q in self._free.items()
                        if q and e not in wanted
                    ]
                    poll = now + self.poll_seconds if self._renewing else self._poll_at()
                    self._keeper_wakes = min([*idle, poll])
                    self._tick.wait(max(0.001, self._keeper_wakes - now))
                    self._keeper_wakes = float("-inf")  # awake: nobody need notify
            self._send(sends)

    def _renew(self) -> None:
        self._renewing = True
        holder = self._holder

        def renewed(sent: float, done: Any) -> None:
            with self._lock:
                self._renewing = False
                try:
                    known, shares = done.result()
                except BaseException as err:
                    self._error = err
                    self._changed.notify_all()
                    return
                if holder != self._holder:
                    return
                if known:
                    self._valid_until = max(self._valid_until, sent + self.lease_seconds)
                    self._shares = {tuple(pool): int(n) for pool, n in shares.items()}
                else:
                    self._new_holder()
                self._wake_keeper(time.monotonic())  # surplus over a new share goes back

        def send() -> None:
            sent = self._contact = time.monotonic()
            ref = self.actor.renew.remote(holder)
            ref.future().add_done_callback(lambda done: renewed(sent, done))

        self._outbox.append(send)

    # -- inspection ----------------------------------------------------------------------

    def in_flight(self) -> dict[str, int]:
        """Tokens granted per endpoint, cluster-wide (at least the calls in flight)."""
        return dict(ray.get(self.actor.in_flight.remote()))

    def stats(self) -> dict[str, int]:
        """Messages the actor received, by kind."""
        return dict(ray.get(self.actor.stats.remote()))
