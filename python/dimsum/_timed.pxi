# Included by _core.pyx (textually, at this point of the module): a timed game's hourglass (Clock) and TimedState.

cdef int64_t MAX_TICKS_CHECKED = 1 << 62   # beyond this the game's own check_ticks cannot be asked
# The state fields of a timed game's hourglass (common/tick_clock.hpp), in Clock's order.
CLOCK_FIELDS = ("clock_top", "clock_capacity", "clock_lying")


@cython.freelist(8)
cdef class Clock:
    """A timed game's hourglass at one moment (``state.clock``): ticks still to run in the top
    bulb, ticks in a full glass, and whether it lies on its side (frozen). A value: it does not
    follow the state's later moves, and equal clocks compare equal."""

    cdef readonly int top           # ticks still to run in the top bulb
    cdef readonly int capacity      # ticks in a full glass
    cdef readonly bint lying_down   # the glass is on its side (frozen)

    def __init__(self, top, capacity, lying_down=False):
        self.capacity = check_int(capacity, "clock capacity", 1, 2**31 - 1)
        self.top = check_int(top, "clock top", 0, self.capacity)
        if not isinstance(lying_down, bool):
            raise TypeError(f"clock lying_down must be True or False, got {lying_down!r}")
        self.lying_down = lying_down

    @property
    def bottom(self):
        """ticks already run (the other bulb)"""
        return self.capacity - self.top

    @property
    def ran_out(self):
        """a standing glass with an empty top bulb: the moment of a time-out"""
        return self.top == 0 and not self.lying_down

    def to_dict(self):
        """As the state's dict shows it (``to_dict()["clock"]``)."""
        return {"top": self.top, "capacity": self.capacity, "lying": bool(self.lying_down)}

    def __eq__(self, other):
        if not isinstance(other, Clock):
            return NotImplemented
        cdef Clock o = <Clock>other
        return self.top == o.top and self.capacity == o.capacity and self.lying_down == o.lying_down

    def __hash__(self):
        return hash((self.top, self.capacity, bool(self.lying_down)))

    def __reduce__(self):
        return (Clock, (self.top, self.capacity, bool(self.lying_down)))

    def __repr__(self):
        return f"Clock(top={self.top}, capacity={self.capacity}, lying_down={bool(self.lying_down)})"


cdef class TimedState(State):
    """A position of a game with a clock (Dim Sum Jam's hourglass, ARCHITECTURE section 4).

    ``apply(action, ticks=None)`` charges the action ``ticks`` of time (default: the game's cost
    for that action); ``advance(ticks)`` lets time pass with no action. ``timeline`` lists
    ``(action, ticks charged)`` and ``(-1, ticks)`` for advance; ``game.replay(seed, timeline)``
    rebuilds the state. ``clock`` reads the hourglass (a Clock). Bad ticks raise
    (TypeError/ValueError) with the state unchanged.
    """

    # The timeline as one chain (previous, action, ticks), action -1 for advance; clone shares
    # it. The history is read from it (the base class's _hist chain stays empty), so an apply
    # costs one small tuple.
    cdef object _tl

    cdef int64_t _ticks(self, ticks) except -1:
        cdef char err[ERR_LEN]
        cdef int64_t t = check_int(ticks, "ticks", 0, MAX_TICKS_CHECKED)
        if not self.game.api.check_ticks(self.game.config, t, err, ERR_LEN):
            raise ValueError(err.decode())
        return t

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def apply(self, action, ticks=None):
        """Plays ``action``, which took ``ticks`` (None: the game's default cost). IllegalActionError
        (a ValueError) if it is not legal, ValueError/TypeError for bad ticks: state unchanged."""
        cdef int64_t t = -1 if ticks is None else self._ticks(ticks)
        cdef int a = _as_action(action, self.game.num_actions)
        cdef Game g = self.game
        if not g.api.is_legal(g.config, self.buf, a):
            raise IllegalActionError(self._illegal_message(a))
        if t > 0 and g.api.current_player(self.buf) == CHANCE:
            raise ValueError(f"a chance outcome takes no time; got ticks={t} (give 0 or None)")
        cdef int64_t charged = g.api.apply_timed(g.config, self.buf, a, t)
        self._tl = (self._tl, a, charged)
        self._hist_len += 1

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def advance(self, ticks):
        """Lets ``ticks`` of time pass with no action (a real-time front end's clock)."""
        cdef int64_t t = self._ticks(ticks)
        if self.game.api.current_player(self.buf) == TERMINAL:
            raise IllegalActionError("advance: the game is over")
        if self.game.api.current_player(self.buf) == CHANCE:
            raise IllegalActionError("advance: chance acts first (a chance node takes no time); apply an outcome")
        self.game.api.advance(self.game.config, self.buf, t)
        self._tl = (self._tl, -1, t)

    @cython.critical_section
    def _history_node(self):
        return self._chain()

    cdef object _chain(self):
        if self._packed is None:
            return self._tl
        self._tl = _rebase(self._tl, self._packed.as_chain())
        self._packed = None
        return self._tl

    @property
    @cython.critical_section
    def clock(self):
        """The hourglass now (a Clock: top, capacity, bottom, lying_down, ran_out), read from the
        state's clock fields."""
        cdef Game g = self.game
        cdef int64_t top, capacity, lying
        g.api.read_field(g.config, self.buf, g.clock_fields[0], &top)
        g.api.read_field(g.config, self.buf, g.clock_fields[1], &capacity)
        g.api.read_field(g.config, self.buf, g.clock_fields[2], &lying)
        cdef Clock clock = Clock.__new__(Clock)
        clock.top = <int>top
        clock.capacity = <int>capacity
        clock.lying_down = lying != 0
        return clock

    @property
    @cython.critical_section
    def timeline(self):
        """``(action, ticks charged)`` per apply and ``(-1, ticks)`` per advance, oldest first."""
        out = []
        node = self._tl
        while node is not None:
            out.append((node[1], node[2]))
            node = node[0]
        cdef _PackedHistory run = self._packed
        cdef Py_ssize_t i
        if run is not None:
            out.extend([(run.action(i), run.ticks(i)) for i in range(run.count - 1, -1, -1)])
        out.reverse()
        return out

    @property
    @cython.critical_section
    def history(self):
        """Actions applied since new_state (or since the state was rebuilt from bytes or a dict)."""
        out = [0] * self._hist_len
        node = self._tl
        cdef Py_ssize_t i = self._hist_len, j = 0, k
        cdef int a
        while node is not None:
            if node[1] != -1:
                i -= 1
                out[i] = node[1]
            node = node[0]
        cdef _PackedHistory run = self._packed
        if run is not None:  # the run before the chain: actions 0 .. i-1
            for k in range(run.count):
                a = run.action(k)
                if a != -1:
                    out[j] = _ACTION_INTS[a]
                    j += 1
        return out

    cdef void _copy_history_into(self, State out) noexcept:
        (<TimedState>out)._tl = self._tl
        out._packed = self._packed
        out._hist_len = self._hist_len

    # pickling (State.__reduce_ex__): the timeline's entries instead of the history's
    cdef Py_ssize_t _pickled_entries(self) noexcept:
        cdef Py_ssize_t n = 0 if self._packed is None else self._packed.count
        cdef PyObject* node = <PyObject*>self._tl  # borrowed, as in State._write_pickled_entries
        while node != <PyObject*>None:
            n += 1
            node = _tuple_item(node, 0)
        return n

    cdef Py_ssize_t _pickled_entry_bytes(self) noexcept:
        return TIMELINE_ENTRY

    cdef int _write_pickled_entries(self, unsigned char* p, Py_ssize_t n) except -1:
        """The timeline's last ``n`` entries at ``p``, oldest first: int32 action (-1: advance),
        int64 ticks, little-endian."""
        cdef PyObject* node = <PyObject*>self._tl
        while node != <PyObject*>None and n > 0:
            n -= 1
            _put_le(p + TIMELINE_ENTRY * n, <uint64_t><uint32_t><int><object>_tuple_item(node, 1), 4)
            _put_le(p + TIMELINE_ENTRY * n + 4, <uint64_t><int64_t><object>_tuple_item(node, 2), 8)
            node = _tuple_item(node, 0)
        _write_run(self._packed, p, n)
        return 0
