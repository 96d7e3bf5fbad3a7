# Included by _core.pyx (textually, at this point of the module): pickling a State: its reduction and the way back, every load checked.

cdef tuple _reduce_state(State s):
    """State.__reduce_ex__: (_PickledState, (game key, payload[, root])), the payload in one
    allocation (the layout above HISTORY_ENTRY)."""
    cdef Game g = s.game
    cdef Py_ssize_t entries = s._pickled_entries()
    cdef Py_ssize_t state_bytes = kStateHeaderBytes + g.api.state_size
    cdef unsigned char tag = ROOT_OBJECT
    cdef uint64_t seed = 0
    cdef Py_ssize_t root_bytes = 0
    root = s._root
    if root is None:
        tag = ROOT_NONE
    elif type(root) is bytes and len(<bytes>root) <= 0xFFFFFFFF:
        tag = ROOT_BYTES
        root_bytes = 4 + len(<bytes>root)
    elif type(root) is int:
        seed = _as_c_u64(<PyObject*>root)
        if seed == <uint64_t>-1 and _pending_error() != NULL:  # negative, or 2**64 and up: an object
            _clear_error()
        else:
            tag = ROOT_SEED
            root_bytes = 8
    cdef bytes payload = PyBytes_FromStringAndSize(NULL, 2 + root_bytes + state_bytes + s._pickled_entry_bytes() * entries)
    cdef unsigned char* p = <unsigned char*>PyBytes_AS_STRING(payload)
    p[0] = PICKLE_LAYOUT
    p[1] = tag
    p += 2
    if tag == ROOT_SEED:
        _put_le(p, seed, 8)
    elif tag == ROOT_BYTES:
        _put_le(p, <uint64_t>(root_bytes - 4), 4)
        memcpy(p + 4, PyBytes_AS_STRING(root), root_bytes - 4)
    p += root_bytes
    s._write_bytes(<char*>p)
    s._write_pickled_entries(p + state_bytes, entries)
    if tag == ROOT_OBJECT:
        return (_PickledState, (g._key(), payload, root))
    return (_PickledState, (g._key(), payload))


class _PickledState:
    """What a pickled state calls to come back (State.__reduce_ex__): ``_PickledState(key,
    payload[, root])`` returns the State (_state_of_pickle), never an instance of this class.

    A class named in the top-level package, not a function here: pickle writes a class by its
    name without first asking it to reduce itself (a Cython function takes that detour), and
    imports "dimsum" once where "dimsum._core" is two imports: about 3,000 instructions less a
    dumps. dimsum/__init__.py resolves the name (a pickle may be loaded before _core is)."""

    __module__ = "dimsum"
    __slots__ = ()

    def __new__(cls, bytes key, bytes payload, root=None):
        return _state_of_pickle(key, payload, root)


def _unpickle_state(bytes key, bytes payload, root=None):
    """A pickled state's payload, as _PickledState reads it (for tests and tools)."""
    return _state_of_pickle(key, payload, root)


cdef State _state_of_pickle(bytes key, bytes payload, root):
    """A pickled state (State.__reduce_ex__, the layout above HISTORY_ENTRY): its game by its key,
    then the payload, every part checked: a pickle is untrusted input."""
    cdef Game game = _game_from_key(key)
    cdef const unsigned char* p = <const unsigned char*>PyBytes_AS_STRING(payload)
    cdef Py_ssize_t left = len(payload)
    cdef Py_ssize_t size
    if left < 2 or p[0] != PICKLE_LAYOUT:
        raise ValueError(f"a pickled {game.name} state of an unknown layout ({payload[:1]!r}; this version "
                         f"reads layout {PICKLE_LAYOUT})")
    cdef unsigned char tag = p[1]
    p += 2
    left -= 2
    if tag != ROOT_OBJECT and root is not None:
        raise ValueError(f"a pickled {game.name} state has its root in its payload and beside it")
    if tag == ROOT_SEED:
        _check_left(game, left, 8, "root seed")
        root = _get_le(p, 8)
        size = 8
    elif tag == ROOT_BYTES:
        _check_left(game, left, 4, "root's length")
        size = 4 + <Py_ssize_t>_get_le(p, 4)
        _check_left(game, left, size, "root bytes")
        root = PyBytes_FromStringAndSize(<const char*>p + 4, size - 4)
    elif tag == ROOT_NONE or tag == ROOT_OBJECT:
        size = 0
    else:
        raise ValueError(f"a pickled {game.name} state's root is of an unknown kind ({tag})")
    p += size
    left -= size
    size = kStateHeaderBytes + game.api.state_size
    _check_left(game, left, size, "state bytes")
    cdef State s = game._state_from_raw(<const char*>p, size)
    _read_entries(s, payload, len(payload) - (left - size))  # in place: the run keeps the payload
    s._root = root
    return s


cdef int _check_left(Game game, Py_ssize_t left, Py_ssize_t size, str what) except -1:
    if left < size:
        raise ValueError(f"a pickled {game.name} state is cut short: its {what} take {size} bytes, "
                         f"{left} are left")
    return 0


cdef int _read_entries(State s, bytes data, Py_ssize_t offset) except -1:
    """The pickled history (a timed game: the timeline) in ``data`` from ``offset`` onto ``s``, a
    state with none yet: each entry checked, kept packed where it lies (no object per entry)."""
    cdef _PackedHistory run = _checked_run(s.game, data, offset)
    s._packed = run
    s._hist_len = 0 if run is None else run.actions
    return 0


cdef int _read_entry_tuples(State s, history) except -1:
    """The history (timeline) of the earliest layout, a tuple of actions (of (action, ticks)):
    checked as the packed one is."""
    cdef Game game = s.game
    cdef TimedState t
    if not game.timed:
        for action in history:
            _check_action(game, _entry_int(game, action))
            s._hist = (s._hist, action)
            s._hist_len += 1
        return 0
    t = <TimedState>s
    for entry in history:
        if type(entry) is not tuple or len(<tuple>entry) != 2:
            raise ValueError(f"a pickled {game.name} timeline holds {entry!r:.40}: its entries are (action, ticks)")
        action, ticks = entry
        _check_timeline_entry(game, _entry_int(game, action), _entry_int(game, ticks))
        t._tl = (t._tl, action, ticks)
        t._hist_len += action != -1
    return 0


cdef int64_t _entry_int(Game game, value) except? -1:
    if type(value) is not int or not -1 <= value <= MAX_TICKS_CHECKED:
        raise ValueError(f"a pickled {game.name} history holds {value!r:.40}: its actions and ticks are ints, "
                         f"actions are in [-1, {game.num_actions}), ticks in [0, {MAX_TICKS_CHECKED}]")
    return value


cdef inline int _check_action(Game game, int64_t action) except -1:
    if action < 0 or action >= game.num_actions:
        raise ValueError(f"a pickled {game.name} history holds action {action}: actions are in [0, {game.num_actions})")
    return 0


cdef inline int _check_timeline_entry(Game game, int64_t action, int64_t ticks) except -1:
    if action < -1 or action >= game.num_actions or ticks < 0 or ticks > MAX_TICKS_CHECKED:
        raise ValueError(f"a pickled {game.name} timeline holds ({action}, {ticks}): actions are "
                         f"-1 (advance) or in [0, {game.num_actions}), ticks in [0, {MAX_TICKS_CHECKED}]")
    return 0


def _load_state(str name, fingerprint, options, bytes data, history, root=None):
    """A state pickled by the layout before the payload (until 2026-12-03): its game by name,
    fingerprint and options, the state's bytes, the history (timeline) packed, the root."""
    return _state_from_parts(_unpickle_game(name, fingerprint, options), data, history, root)


def _restore_timed_state(Game game, bytes data, timeline, root=None):
    """A state pickled with its Game (pickles written before _load_state)."""
    return _state_from_parts(game, data, timeline, root)


def _restore_state(Game game, bytes data, history, root=None):
    """A state pickled with its Game (pickles written before _load_state)."""
    return _state_from_parts(game, data, history, root)


cdef State _state_from_parts(Game game, bytes data, history, root):
    """The earlier layouts' state: its bytes, then its history (timeline) packed in bytes or, in
    the earliest, a tuple; each checked as _unpickle_state checks them."""
    cdef State s = game._state_from_raw(PyBytes_AS_STRING(data), len(data))
    if type(history) is bytes:
        _read_entries(s, history, 0)
    else:
        _read_entry_tuples(s, history)
    s._root = root
    return s
