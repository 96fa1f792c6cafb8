"""The glue of the ``batch`` export: the host steps or resets several envs of one component in
one call, and each answers exactly as its own ``step``/``reset`` of the ``env`` export would,
the results packed column by column.

``geode build`` makes this module's ``Batch`` the component's ``batch`` export next to
:mod:`geode_sdk.contract`'s ``Env``; plugin authors never import it. As there, a refusal
(:class:`GeodeError`) is the member's typed error (its entry is flagged refused) and any other
exception ends the instance, so the host reports a guest trap and recovers the other members.

A member's outputs depend only on its configuration, how its episode started and the calls
made on it since: a ``continued`` start reseeds its generator from the episode's
``(stream, number)`` alone (:func:`~geode_sdk.rng.continued`), so the host can replay it."""

import weakref
from itertools import accumulate

from wit_world import exports
from wit_world.exports import batch as contract

from .errors import GeodeError, Internal, InvalidState
from .guard import env_error, trap
from .slot import info_json

TERMINATED = 1
TRUNCATED = 2
REFUSED = 4

# Enrolled slots by number, weakly: an entry dies with its instance and may be reused.
_MEMBERS = []


def _enrol(slot):
    """The number of ``slot`` in batch calls (a dead entry's number, or a new one)."""
    ref = weakref.ref(slot)
    for number, entry in enumerate(_MEMBERS):
        if entry() is None:
            _MEMBERS[number] = ref
            return number
    _MEMBERS.append(ref)
    return len(_MEMBERS) - 1


def _slot(number):
    """The live slot enrolled as ``number``; refused when there is none."""
    slot = _MEMBERS[number]() if number < len(_MEMBERS) else None
    if slot is None:
        raise InvalidState(f"no live instance is enrolled as number {number}")
    return slot


def _actions(text, ends, n):
    """The n actions of a batch: entry k is ``text``'s bytes ``ends[k-1]..ends[k]``, or None
    when those bounds do not fit the text (the entry is then refused)."""
    data = text if text.isascii() else text.encode()
    out = []
    start = 0
    for k in range(n):
        end = ends[k] if k < len(ends) else -1
        action = None
        if start <= end <= len(data):
            piece = data[start:end]
            try:
                action = piece if data is text else piece.decode()
            except UnicodeDecodeError:
                action = None
        out.append(action)
        start = max(start, end)
    return out


class _Columns:
    """:class:`~wit_world.exports.batch.BatchResults` under construction, one entry at a time
    (the text columns' ends are counted when it is finished)."""

    def __init__(self):
        self.observations = []
        self.infos = []
        self.rewards = []
        self.flags = bytearray()
        self.errors = []

    def push(self, observation, info, reward, flags):
        self.observations.append(observation)
        self.infos.append(info)
        self.rewards.append(reward)
        self.flags.append(flags)

    def refuse(self, error):
        self.errors.append((len(self.flags), env_error(error)))
        self.push("", "", 0.0, REFUSED)

    def step(self, number, action):
        """Steps member ``number`` with ``action`` (None: its bounds did not fit) into the next
        entry."""
        try:
            slot = _slot(number)
            if action is None:
                k = len(self.flags)
                raise Internal(f"entry {k}: action bounds do not fit the actions text")
            out = slot.step(action)
            observation = str(out.observation)
            info = info_json(out.info)
            reward = float(out.reward)
            flags = (TERMINATED if out.terminated else 0) | (TRUNCATED if out.truncated else 0)
        except GeodeError as error:
            self.refuse(error)
            return
        except BaseException:  # noqa: BLE001 - every other exception ends the instance
            trap()
        self.push(observation, info, reward, flags)

    def reset(self, number, start):
        """Starts member ``number``'s next episode as ``start`` says (None: the call gave it
        none) into the next entry."""
        try:
            slot = _slot(number)
            if start is None:
                raise Internal(f"entry {len(self.flags)} has no episode start")
            if isinstance(start, contract.EpisodeStart_Seeded):
                out = slot.reset(start.value)
            else:
                out = slot.reset_continued(start.value.stream, start.value.number)
            observation = str(out.observation)
            info = info_json(out.info)
        except GeodeError as error:
            self.refuse(error)
            return
        except BaseException:  # noqa: BLE001 - every other exception ends the instance
            trap()
        self.push(observation, info, 0.0, 0)

    def step_all(self, members, actions, action_ends):
        """Steps each member with its action."""
        for number, action in zip(members, _actions(actions, action_ends, len(members))):
            self.step(number, action)

    def finish(self):
        try:
            observations, observation_ends = _column(self.observations)
            infos, info_ends = _column(self.infos)
        except BaseException:  # noqa: BLE001 - a text that is not UTF-8 is the env's bug
            trap()
        return contract.BatchResults(
            observations,
            observation_ends,
            infos,
            info_ends,
            self.rewards,
            bytes(self.flags),
            self.errors,
        )


def _column(parts):
    """``parts`` as one text and the UTF-8 byte end of each part in it (``isascii`` costs
    nothing on CPython's strings: most columns need no encoding)."""
    text = "".join(parts)
    if text.isascii():
        return text, list(accumulate(map(len, parts)))
    return text, list(accumulate(len(p) if p.isascii() else len(p.encode()) for p in parts))


def _start(starts, k):
    return starts[k] if k < len(starts) else None


class Batch(exports.Batch):
    """The component's ``batch`` export."""

    def enrol(self, member):
        return _enrol(member.slot)

    def step_each(self, members, actions, action_ends):
        out = _Columns()
        out.step_all(members, actions, action_ends)
        return out.finish()

    def reset_each(self, members, starts):
        out = _Columns()
        for k, number in enumerate(members):
            out.reset(number, _start(starts, k))
        return out.finish()

    def step_each_then_reset(self, members, actions, action_ends, starts):
        out = _Columns()
        out.step_all(members, actions, action_ends)
        for k, number in enumerate(members):
            flags = out.flags[k]
            if not flags & REFUSED and flags & (TERMINATED | TRUNCATED):
                out.reset(number, _start(starts, k))
        return out.finish()
