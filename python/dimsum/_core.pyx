# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, embedsignature=True
# distutils: language = c++
"""The per-move API: one Game and one State class for every game, over the C++ core.

Each game's rules live in C++ (src/dimsum_core/<game>/); each game's names, options and dict
format live in Python (dimsum.games.<game>). This module only moves values across: a State
holds the C++ state inline as bytes, and calls the game's GameApi function table. Nothing
here knows any game's rules.

Three parts are included from their own files, each at its place in the module: the packed history
(_history.pxi), the timed game's Clock and TimedState (_timed.pxi) and pickling (_pickle.pxi).
"""

cimport cython
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int16_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

# numpy's C API, declared here rather than cimported: `cimport numpy` imports numpy when the
# module loads (50 ms); these declarations let the first array-making call import it instead.
cdef extern from "numpy/arrayobject.h":
    ctypedef Py_ssize_t npy_intp
    enum:
        NPY_BOOL
        NPY_FLOAT32
    ctypedef struct PyArrayObject:
        pass
    int _import_array() except -1
    bint PyArray_Check(object)
    object PyArray_EMPTY(int, npy_intp*, int, int)
    object PyArray_ZEROS(int, npy_intp*, int, int)
    void* PyArray_DATA(PyArrayObject*)
    int PyArray_TYPE(PyArrayObject*)
    bint PyArray_IS_C_CONTIGUOUS(PyArrayObject*)
    bint PyArray_ISWRITEABLE(PyArrayObject*)
    bint PyArray_ISNOTSWAPPED(PyArrayObject*)
    bint PyArray_ISALIGNED(PyArrayObject*)
    npy_intp PyArray_SIZE(PyArrayObject*)

import importlib
import pickle
import numbers

from dimsum._common import (CHANCE, OMNISCIENT_NOTE, TERMINAL, IllegalActionError, Slice, check_int, check_seed, describe_actions,
                            play_timeline)
from dimsum._schema import (FieldSpec, fingerprint_values as _fingerprint_values, flatten_fields as _flatten_fields,
                            pack_config as _pack_config, unflatten)

cdef extern from "dimsum_core/common/game_api.hpp" namespace "dimsum":
    ctypedef struct ConfigInfo:
        int num_actions
        int players
        int observation_size
        int num_fields
        int max_game_length
        int num_chance_outcomes

    ctypedef struct FieldInfo:
        const char* name
        const char* doc
        int offset
        int rows
        int cols
        int rank
        int64_t lo
        int64_t hi
        unsigned int flags

    ctypedef struct GameApi:
        const char* name
        uint16_t game_id
        uint16_t state_version
        uint32_t config_size
        uint32_t state_size
        int (*config_fields)(FieldInfo*) noexcept nogil
        bint (*config_from_values)(const int64_t*, int, void*, char*, int) noexcept nogil
        int (*state_fields)(const void*, FieldInfo*) noexcept nogil
        int (*observation_slices)(const void*, FieldInfo*) noexcept nogil
        void (*config_info)(const void*, ConfigInfo*) noexcept nogil
        void (*new_state)(const void*, void*, uint64_t) noexcept nogil
        int (*current_player)(const void*) noexcept nogil
        int (*legal_actions)(const void*, const void*, int16_t*) noexcept nogil
        bint (*is_legal)(const void*, const void*, int) noexcept nogil
        void (*apply)(const void*, void*, int) noexcept nogil
        int (*chance_outcomes)(const void*, const void*, int16_t*, uint32_t*) noexcept nogil
        void (*reseed)(void*, uint64_t) noexcept nogil
        void (*returns)(const void*, const void*, double*) noexcept nogil
        void (*observe)(const void*, const void*, int, float*) noexcept nogil
        uint64_t (*hash)(const void*) noexcept nogil
        uint64_t (*compute_hash)(const void*, const void*) noexcept nogil
        int (*export_fields)(const void*, const void*, int64_t*) noexcept nogil
        int (*read_field)(const void*, const void*, int, int64_t*) noexcept nogil
        bint (*import_fields)(const void*, const int64_t*, int, void*, char*, int) noexcept nogil
        bint (*validate)(const void*, const void*, char*, int) noexcept nogil
        void (*write_bytes)(const void*, void*) noexcept nogil
        void (*read_bytes)(const void*, void*) noexcept nogil
        void (*resample)(const void*, const void*, int, uint64_t, void*) noexcept nogil
        bint (*check_ticks)(const void*, int64_t, char*, int) noexcept nogil
        int64_t (*apply_timed)(const void*, void*, int, int64_t) noexcept nogil
        void (*advance)(const void*, void*, int64_t) noexcept nogil

    enum:
        kCounted
        kWord
        kKeyedWhenSet
        kDerived
        kMaxSchemaFields

    const GameApi* find_game(const char* name)
    int num_games()
    const GameApi* game_at(int index)

# The shared player cap (common/engine.hpp): every game's players fit in kMaxPlayers, checked
# when the game's config is built, so per-player buffers on the stack are sized by it.
cdef extern from "dimsum_core/common/engine.hpp" namespace "dimsum":
    enum:
        kMaxPlayers

# For pickling a state: its history chain walked by borrowed pointers (State._write_pickled_entries:
# no reference counting, no checks per node), a seed root read without raising when it is not one.
cdef extern from "Python.h":
    PyObject* _tuple_item "PyTuple_GET_ITEM"(PyObject* tuple, Py_ssize_t i) noexcept nogil
    unsigned long long _as_c_u64 "PyLong_AsUnsignedLongLong"(PyObject* v) noexcept
    PyObject* _pending_error "PyErr_Occurred"() noexcept nogil
    void _clear_error "PyErr_Clear"() noexcept


cdef extern from "dimsum_core/common/rng.hpp" namespace "dimsum":
    uint64_t splitmix64(uint64_t) noexcept nogil

# to_bytes' header and body are little-endian on every host (common/state_bytes.hpp,
# byte_order.hpp): bytes written on any machine load on any other.
cdef extern from "dimsum_core/common/state_bytes.hpp" namespace "dimsum":
    ctypedef struct StateBytesHeader:
        char magic[4]
        uint16_t format
        uint16_t game_id
        uint32_t state_version
        uint32_t state_size
        uint64_t fingerprint
    size_t kStateHeaderBytes
    void write_state_header(const StateBytesHeader&, void*) noexcept nogil
    StateBytesHeader read_state_header(const void*) noexcept nogil

# States are made only by their Game (_blank_state sets this flag, per thread, around the
# allocation): a State made by State.__new__ from Python would have no game, and its first
# method call would dereference it.
cdef extern from *:
    """
    static thread_local int dimsum_making_state = 0;
    """
    int dimsum_making_state

# A state lives inline in its Python object: no second allocation per clone. The buffer is as
# small as the largest State allows (Yum Cha's 688 bytes), since every new State object is
# zeroed whole (tp_alloc) before the state is copied in: it was 1 KiB.
cdef enum:
    MAX_STATE_WORDS = 86       # 688 bytes (Game.__init__ refuses a larger State: raise this)
    MAX_ACTIONS = 1024         # legal-action scratch space (checked too)
    ERR_LEN = 512

MAX_PLAYERS = kMaxPlayers     # the most players any game may declare (common/engine.hpp)

cdef bytes MAGIC = b"DSUM"
cdef int BYTES_FORMAT = 1
cdef object _np = None


cdef object numpy():
    """numpy, imported (with its C API) on first use: importing it with the module made
    `import dimsum` 50x slower. Every path that touches a numpy array calls this first."""
    global _np
    if _np is None:
        import numpy
        _import_array()
        _np = numpy
    return _np


cdef object _new_array(int n, int typenum, bint zeroed):
    numpy()
    cdef npy_intp dims[1]
    dims[0] = n
    if zeroed:
        return PyArray_ZEROS(1, dims, typenum, 0)
    return PyArray_EMPTY(1, dims, typenum, 0)


# Every action id as a Python int, made once: Python caches only -5..256, so legal_actions()
# boxed every action of 257 and above (most of Dim Sum Jam's) on every call.
cdef list _ACTION_INTS = list(range(MAX_ACTIONS))


@cython.boundscheck(False)  # every id is below MAX_ACTIONS (Game.__init__ checks num_actions)
@cython.wraparound(False)
cdef list _action_list(const int16_t* actions, int n):
    """actions[0:n] as a list, built at its final size from the shared ints."""
    cdef list out = PyList_New(n)
    cdef object a
    for i in range(n):
        a = _ACTION_INTS[actions[i]]
        Py_INCREF(a)  # PyList_SET_ITEM steals a reference
        PyList_SET_ITEM(out, i, a)
    return out


cdef object _checked_mask_out(object out, int size):
    """``out`` if it can take a legal mask as it is (numpy bool, C-contiguous, writable, aligned,
    ``size`` values), else TypeError or ValueError: a mask is never written through a copy."""
    numpy()
    if not PyArray_Check(out) or PyArray_TYPE(<PyArrayObject*>out) != NPY_BOOL:
        raise TypeError(f"legal_mask(out=...) needs a numpy bool array, got {type(out).__name__}"
                        f"{'' if not PyArray_Check(out) else ' of dtype ' + str(out.dtype)}")
    cdef PyArrayObject* a = <PyArrayObject*>out
    if not (PyArray_IS_C_CONTIGUOUS(a) and PyArray_ISWRITEABLE(a) and PyArray_ISALIGNED(a)):
        raise ValueError("legal_mask(out=...) needs a writable, C-contiguous, aligned bool array "
                         "(numpy.zeros(game.num_actions, dtype=bool) is one)")
    if PyArray_SIZE(a) != size:
        raise ValueError(f"legal_mask(out=...) needs {size} values, got {PyArray_SIZE(a)}")
    return out


# ---------------------------------------------------------------------------------------------

cdef tuple _field_specs(const FieldInfo* infos, int n):
    """FieldInfo rows as dimsum._schema.FieldSpec objects (names and docs decoded once)."""
    return tuple(FieldSpec(infos[i].name.decode(), infos[i].doc.decode(), infos[i].offset,
                           _shape(infos[i].rank, infos[i].rows, infos[i].cols), infos[i].lo, infos[i].hi,
                           bool(infos[i].flags & kWord), bool(infos[i].flags & kCounted),
                           bool(infos[i].flags & kKeyedWhenSet), bool(infos[i].flags & kDerived))
                 for i in range(n))


cdef tuple _shape(int rank, int rows, int cols):
    if rank == 0:
        return ()
    if rank == 1:
        return (rows * cols,)
    return (rows, cols)


cdef class Game:
    """A configured game: rules, options, action space and observation layout.

    Make it with ``dimsum.make(name, **options)``.
    """

    cdef const GameApi* api
    cdef uint64_t* config
    cdef readonly str name
    cdef readonly int num_actions
    cdef readonly int players
    cdef readonly int max_game_length
    cdef readonly int num_chance_outcomes   # chance outcomes are [0, num_chance_outcomes)
    cdef readonly bint explicit_chance      # made with chance="explicit": states stop at chance nodes
    cdef int observation_size
    cdef int num_fields
    cdef uint64_t fingerprint
    cdef readonly object spec          # the Python-side Config (dimsum.games.<name>.Config)
    cdef readonly tuple config_values  # the config as the core reads it (config_from_values): tests/golden_cpp
    cdef object module                 # dimsum.games.<name>
    cdef readonly tuple state_fields   # FieldSpec per state field, in the core's order
    cdef dict field_index              # field name -> its index in state_fields
    cdef dict scalar_index             # the same for one-int fields that are not words (field's fast path)
    cdef readonly tuple observation_layout   # Slice per observation slice
    cdef tuple _slice_bounds           # (lo, hi) per observation slice
    cdef object _bounds                # (low, high) float32 arrays, made on first use
    cdef object state_type
    cdef bint timed                    # the api has apply_timed/advance: states are TimedStates
    cdef int clock_fields[3]           # timed: the indices of clock_top, clock_capacity, clock_lying
    cdef bint built                    # __init__ finished: the game is complete and never changes
    cdef bytes _pickle_key             # (name, fingerprint, options) pickled once: what a pickle carries

    def __cinit__(self):
        self.config = NULL
        self.api = NULL

    def __init__(self, str name, dict options):
        cdef char err[ERR_LEN]
        if self.built:  # its states hold this config: a built game never changes
            raise TypeError(f"this {self.name} game is already built and cannot change; "
                            f"make another with dimsum.make({self.name!r}, ...)")
        PyMem_Free(self.config)  # what an earlier, failed __init__ left
        self.config = NULL
        cdef ConfigInfo info
        cdef FieldInfo infos[kMaxSchemaFields]
        cdef const GameApi* api = find_game(name.encode())
        if api == NULL:
            raise ValueError(f"game {name!r} is not compiled into this build of dimsum")
        self.api = api
        if self.api.state_size > MAX_STATE_WORDS * 8:
            raise AssertionError(f"{name}: State is {self.api.state_size} bytes, the binding holds {MAX_STATE_WORDS * 8}")
        self.module = importlib.import_module(f"dimsum.games.{name}")
        self.spec = self.module.make_config(**options)
        self.name = name
        values_by_name = self.module.config_values(self.spec)
        values_by_name["explicit_chance"] = int(self.spec.explicit_chance)  # every game's (COMMON_OPTIONS)
        config_specs = _field_specs(infos, self.api.config_fields(infos))
        packed = _pack_config(name, config_specs, values_by_name)
        self.config_values = tuple(packed)
        cdef int64_t* values = <int64_t*>PyMem_Malloc(max(1, len(packed)) * sizeof(int64_t))
        if values == NULL:
            raise MemoryError()
        try:
            for i, v in enumerate(packed):
                values[i] = v
            self.config = <uint64_t*>PyMem_Malloc(self.api.config_size + 8)
            if self.config == NULL:
                raise MemoryError()
            memset(self.config, 0, self.api.config_size)
            if not self.api.config_from_values(values, len(packed), self.config, err, ERR_LEN):
                raise ValueError(err.decode())
        finally:
            PyMem_Free(values)
        self.api.config_info(self.config, &info)
        sizes = info  # the core's sizes by name (a dict): the one source of each
        _check_sizes_agree(name, sizes, self.spec)
        # the player cap and the chance-outcome range are the contract's, checked when the config
        # was built (common/engine.hpp); the action count only bounds this binding's scratch space
        if info.num_actions > MAX_ACTIONS:
            raise AssertionError(f"{name}: too many actions for the binding")
        self.num_actions = info.num_actions
        self.players = info.players
        self.observation_size = info.observation_size
        self.num_fields = info.num_fields
        self.max_game_length = info.max_game_length
        self.num_chance_outcomes = info.num_chance_outcomes
        self.explicit_chance = self.spec.explicit_chance
        # the key of this configuration in to_bytes' header: the format (1), then the values
        # (_schema.fingerprint_values: a derived field keyed with the core's size, an appended
        # field at its default 0 left out)
        self.fingerprint = splitmix64((0x44494D53554D0001 ^ self.api.game_id) ^ 1)
        for v in _fingerprint_values(name, config_specs, values_by_name, sizes):
            self.fingerprint = splitmix64(self.fingerprint ^ <uint64_t><int64_t>v)
        self.state_fields = _field_specs(infos, self.api.state_fields(self.config, infos))
        self.field_index = {f.name: i for i, f in enumerate(self.state_fields)}
        self.scalar_index = {f.name: i for i, f in enumerate(self.state_fields) if not f.shape and not f.word}
        cdef int n = self.api.observation_slices(self.config, infos)
        self.observation_layout = tuple(Slice(infos[i].name.decode(), infos[i].offset, infos[i].offset + infos[i].cols,
                                              infos[i].doc.decode()) for i in range(n))
        self._slice_bounds = tuple((infos[i].lo, infos[i].hi) for i in range(n))
        if sum(sl.stop - sl.start for sl in self.observation_layout) != self.observation_size:
            raise AssertionError(f"{name}: the observation slices do not add up to the observation size")
        self.timed = timed = self.api.advance != NULL
        if timed:
            self._find_clock_fields()
        self.state_type = getattr(self.module, "STATE_CLASS", TimedState if timed else State)
        if timed != issubclass(self.state_type, TimedState):
            raise AssertionError(f"{name}: a game with a clock needs a TimedState (and only it does)")
        self.built = True

    cdef _find_clock_fields(self):
        """A timed game's hourglass is three scalar state fields (engine.hpp, TimedGame), read
        by TimedState.clock: their indices, found once."""
        for i, field in enumerate(CLOCK_FIELDS):
            if field not in self.scalar_index:
                raise AssertionError(f"{self.name}: a timed game declares the scalar state fields "
                                     f"{list(CLOCK_FIELDS)}; {field!r} is not one of {list(self.scalar_index)}")
            self.clock_fields[i] = self.scalar_index[field]

    cdef inline int _check_built(self) except -1:
        if not self.built:
            raise TypeError("this Game was never built: make games with dimsum.make(name, **options)")
        return 0

    def __dealloc__(self):
        PyMem_Free(self.config)

    # -- description ---------------------------------------------------------------------------
    @property
    def options(self):
        return dict(self.spec.options)

    @property
    def option_specs(self):
        """The options this game's name takes, as OptionSpecs (the same as ``dimsum.options(name)``)."""
        from dimsum._options import option_specs
        return option_specs(self.name, (self.name,))

    @property
    def observation_shape(self):
        return (self.observation_size,)

    @property
    def observation_bounds(self):
        """``(low, high)``: float32 arrays of observation_shape, every observation value within
        them (each slice declares its bounds in the core)."""
        if self._bounds is None:
            np = numpy()
            low = np.empty(self.observation_size, np.float32)
            high = np.empty(self.observation_size, np.float32)
            for sl, (lo, hi) in zip(self.observation_layout, self._slice_bounds):
                low[sl.start:sl.stop] = lo
                high[sl.start:sl.stop] = hi
            low.flags.writeable = False
            high.flags.writeable = False
            self._bounds = (low, high)
        return self._bounds

    @property
    def version(self):
        """(state layout version, to_bytes format version)"""
        self._check_built()
        return (self.api.state_version, BYTES_FORMAT)

    @property
    def min_return(self):
        return self.spec.min_return

    @property
    def max_return(self):
        return self.spec.max_return

    @property
    def state_size(self):
        """Bytes of C++ state (the part to_bytes copies)."""
        self._check_built()
        return self.api.state_size

    def action_name(self, action):
        """The name of player action ``action`` (``state.action_name`` also names chance outcomes)."""
        return self.spec.action_space.name(action)

    def parse_action(self, text):
        return self.spec.action_space.parse(text)

    def chance_outcome_name(self, outcome):
        """The name of chance outcome ``outcome`` ("draw Har Gow", "roll 5")."""
        return self.spec.chance_space.name(outcome)

    def parse_chance_outcome(self, text):
        return self.spec.chance_space.parse(text)

    def config_bytes(self):
        """The built C++ Config as raw bytes (native layout, this build only): how a Game crosses
        to dimsum._batch without being parsed again. Check ``state_size``/``version`` with it."""
        self._check_built()
        return PyBytes_FromStringAndSize(<const char*>self.config, self.api.config_size)

    def __repr__(self):
        if not self.built:
            return "<dimsum Game, never built>"
        # an option that takes data (a custom deck, cards, dice: kind list or dict) is left out, so
        # that the repr stays one line
        data = {k for k, o in self.module.OPTIONS.items() if getattr(o, "kind", None) in (list, dict)}
        shown = {k: v for k, v in self.spec.options.items() if k not in data}
        return f"dimsum.make({self.name!r}, **{shown})"

    def __reduce__(self):
        # The game travels as its key, the same bytes object its states' pickles carry: in a
        # pickle of a game and its states it is written once (pickle memoizes it).
        self._check_built()
        return (_game_from_key, (self._key(),))

    cdef bytes _key(self):
        """(name, fingerprint, options) pickled once per game: pickling the options dict on every
        state's dumps was most of its cost, and _game_from_key finds its cached game by these
        bytes unread."""
        if self._pickle_key is None:
            self._pickle_key = pickle.dumps((self.name, self.fingerprint, dict(self.spec.options)),
                                            protocol=pickle.HIGHEST_PROTOCOL)
        return self._pickle_key

    def __eq__(self, other):
        return isinstance(other, Game) and (<Game>other).name == self.name and (<Game>other).fingerprint == self.fingerprint

    def __hash__(self):
        return hash((self.name, self.fingerprint))

    # -- states --------------------------------------------------------------------------------
    def new_state(self, seed=0):
        """The opening position dealt from ``seed`` (an int in [0, 2**64))."""
        cdef uint64_t s = check_seed(seed)
        cdef State state = self._blank_state()
        self.api.new_state(self.config, state.buf, s)
        state._root = seed
        return state

    cdef State _blank_state(self):
        cdef State state
        self._check_built()
        global dimsum_making_state
        dimsum_making_state = 1
        try:
            state = self._allocate_state()
        finally:
            dimsum_making_state = 0
        state.game = self
        state._hist = None
        state._packed = None
        state._hist_len = 0
        state._root = None
        return state

    cdef State _allocate_state(self):
        cdef State state
        if self.state_type is State:
            state = State.__new__(State)  # a direct tp_new call: the common case, kept fast
        elif self.timed:
            state = TimedState.__new__(self.state_type)  # TimedState's tp_new, for its subclass too
        else:
            state = <State>self.state_type.__new__(self.state_type)
        return state

    def state_from_bytes(self, data):
        """The state ``to_bytes`` wrote; ValueError if it is corrupt or from another config."""
        self._check_built()
        if type(data) is not bytes:
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise TypeError(f"state_from_bytes takes bytes, got {type(data).__name__}")
            data = bytes(data)
        cdef State state = self._state_from_raw(PyBytes_AS_STRING(data), len(data))
        state._root = data
        return state

    cdef State _state_from_raw(self, const char* raw, Py_ssize_t size):
        """state_from_bytes' checks and read of ``size`` bytes at ``raw`` (a pickle's payload holds
        them too): the state, its history empty and no root."""
        cdef Py_ssize_t expected = kStateHeaderBytes + self.api.state_size
        if size != expected:
            raise ValueError(f"{self.name} state bytes must be {expected} long, got {size}")
        cdef StateBytesHeader header = read_state_header(raw)
        if memcmp(header.magic, <const char*>MAGIC, 4) != 0:
            raise ValueError("not a dimsum state (bad magic)")
        if header.format != BYTES_FORMAT or header.game_id != self.api.game_id:
            raise ValueError(f"these bytes are not a {self.name} state of format {BYTES_FORMAT}")
        if header.state_version != self.api.state_version or header.state_size != self.api.state_size:
            raise ValueError(f"these bytes hold a {self.name} state of another version")
        if header.fingerprint != self.fingerprint:
            raise ValueError("these bytes are a state of a differently configured game (other options or data)")
        cdef State state = self._blank_state()
        self.api.read_bytes(raw + kStateHeaderBytes, state.buf)
        state._check_valid()
        return state

    def state_from_dict(self, d):
        """A state from its readable dict (``to_dict``), validated field by field."""
        self._check_built()
        if not isinstance(d, dict):
            raise TypeError(f"state_from_dict takes a dict, got {type(d).__name__}")
        return self.state_from_fields(self.module.fields_from_dict(self.spec, d))

    def state_from_fields(self, fields):
        """A state from its named fields (``state.fields()``), each checked against the schema,
        then validated as a whole. Mostly for tools; ``state_from_dict`` reads the readable form."""
        self._check_built()
        flat = _flatten_fields(self.name, self.state_fields, fields)
        cdef State state = self._blank_state()
        cdef char err[ERR_LEN]
        cdef int64_t* values = <int64_t*>PyMem_Malloc(max(1, len(flat)) * sizeof(int64_t))
        if values == NULL:
            raise MemoryError()
        try:
            for i, v in enumerate(flat):
                values[i] = v
            if not self.api.import_fields(self.config, values, len(flat), state.buf, err, ERR_LEN):
                raise ValueError(err.decode())
        finally:
            PyMem_Free(values)
        state._root = state.to_bytes()
        return state


cdef _check_sizes_agree(str name, dict sizes, object spec):
    """The sizes the Python side keeps for its own purposes (its names of the actions and of the
    chance outcomes, its players) are the core's: AssertionError naming both numbers if not."""
    for size, python_side, python_value in (
            ("num_actions", "action names", len(spec.action_space)),
            ("num_chance_outcomes", "chance outcome names", len(spec.chance_space)),
            ("players", "players", spec.players)):
        if sizes[size] != python_value:
            raise AssertionError(f"{name}: the core's {size} is {sizes[size]}, the Python spec has "
                                 f"{python_value} {python_side}")


cdef class TimedGame(Game):
    """A configured game whose states hold a clock (a GameApi with apply_timed and advance)."""

    def replay(self, seed, timeline):
        """The state reached from ``new_state(seed)`` by ``state.timeline`` (actions and time)."""
        return play_timeline(self.new_state(seed), timeline)


cdef object _game_class(str name):
    cdef const GameApi* api = find_game(name.encode())
    return TimedGame if api != NULL and api.advance != NULL else Game


def registered_games():
    """The names of the games compiled into this build, in registry order."""
    return tuple(game_at(i).name.decode() for i in range(num_games()))


def _make_game(name, options):
    return _game_class(name)(name, options)


# A pickled state is (_PickledState, (game key, payload)), or (game key, payload, root) when the
# root is an object. Few objects, as each costs pickle a dispatch and a memo entry; the key is
# the game's one bytes object (Game._key), so a list of states carries it once. The payload:
#   byte 0      PICKLE_LAYOUT
#   byte 1      how the history's root travels: ROOT_NONE; ROOT_SEED, 8 bytes follow (a seed in
#               [0, 2**64)); ROOT_BYTES, a 4-byte length and the bytes follow; ROOT_OBJECT, the
#               root is the third argument (a PlayerView, a Reseeded, any other seed)
#   then        the state's to_bytes (header and body: kStateHeaderBytes + state_size)
#   then        the history to the end, oldest first: int32 actions (HISTORY_ENTRY bytes each),
#               a timed game's timeline (int32 action, int64 ticks: TIMELINE_ENTRY bytes each)
# Every number little-endian like the state bytes (common/byte_order.hpp): a pickle loads on any
# machine. A pickle is untrusted input: _state_of_pickle checks every part.
cdef enum:
    HISTORY_ENTRY = 4
    TIMELINE_ENTRY = 12
    PICKLE_LAYOUT = 1
    ROOT_NONE = 0
    ROOT_SEED = 1
    ROOT_BYTES = 2
    ROOT_OBJECT = 3


# On a little-endian host the pickle's order is the host's: one copy, which the compiler makes a
# single load or store where the width is a constant (the loops byte by byte were 40% of a Dim Sum
# Jam dumps' own work: the compiler did not unroll them).
cdef inline void _put_le(unsigned char* p, uint64_t v, int width) noexcept:
    cdef int i
    if _little_endian():
        memcpy(p, &v, width)
        return
    for i in range(width):
        p[i] = <unsigned char>(v >> (8 * i))


cdef inline uint64_t _get_le(const unsigned char* p, int width) noexcept:
    cdef uint64_t v = 0
    cdef int i
    if _little_endian():
        memcpy(&v, p, width)
        return v
    for i in range(width):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v


# Games unpickled in this process, by their key as pickled (Game._key's bytes; the earlier layouts'
# (name, fingerprint, options pickle) or (name, fingerprint)): a built game never changes, so every
# pickled state of one configuration (a multiprocessing queue, Ray) shares one Game instead of
# parsing its options and data again (that cost 0.2-0.4 ms a load).
cdef dict _unpickled_games = {}


def _unpickle_game(str name, fingerprint, options):
    """A game pickled by an earlier layout (before Game._key): its options pickled (bytes, the
    cache key as they are) or the dict itself (before the options travelled as bytes)."""
    cdef bytes blob = None
    cdef Game game
    if type(options) is bytes:
        blob = options
        key = (name, fingerprint, blob)
        game = _unpickled_games.get(key)
        if game is not None:
            return game
        options = pickle.loads(blob)
    else:
        key = (name, fingerprint)
        game = _unpickled_games.get(key)
        if game is not None and game.spec.options == options:
            return game
    if type(options) is not dict:
        raise TypeError(f"a pickled {name} game carries its options as a dict, got {type(options).__name__}")
    return _built_game(key, name, fingerprint, options)


def _game_from_key(bytes key):
    """The game of a pickle's key (Game._key: name, fingerprint and options pickled together):
    the cached game when this process has seen the key, else the game the key describes."""
    cdef Game game = _unpickled_games.get(key)
    if game is not None:
        return game
    try:
        described = pickle.loads(key)
    except Exception as e:  # a pickle is untrusted input: say which part is corrupt
        raise ValueError(f"a pickled game key does not unpickle ({type(e).__name__}: {e})") from None
    if (type(described) is not tuple or len(described) != 3 or type(described[0]) is not str
            or type(described[1]) is not int or type(described[2]) is not dict):
        raise TypeError(f"a pickled game key is (name, fingerprint, options dict), got {described!r:.80}")
    name, fingerprint, options = described
    game = _built_game(key, name, fingerprint, options)
    if game.fingerprint == fingerprint:  # else its own key differs from this one (another version's)
        game._pickle_key = key
    return game


cdef Game _built_game(key, str name, fingerprint, dict options):
    """A new game of a pickled configuration, cached under ``key`` if this version builds it with
    the fingerprint the pickle carries."""
    cdef Game game = _make_game(name, options)
    if game.fingerprint != fingerprint:  # pickled by another version: the options still make the game
        return game
    if len(_unpickled_games) >= 256:  # a bound: a process that sees many configurations keeps the latest
        _unpickled_games.pop(next(iter(_unpickled_games)))
    _unpickled_games[key] = game
    return game


def make(str name, **options):
    return _make_game(name, options)


# ---------------------------------------------------------------------------------------------

include "_history.pxi"


# clone/new_state reuse the objects of dead States: exact State only (Cython keeps no freelist for
# TimedState and subclasses) and not in free-threaded builds.
@cython.freelist(8)
cdef class State:
    """A position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    cdef Game game
    cdef object _hist           # the history as a chain (previous, action): clone shares it
    cdef _PackedHistory _packed # a loaded history's packed run, before the chain (None: none)
    cdef Py_ssize_t _hist_len   # actions in the run and the chain
    # Where the history starts, for the views (dimsum._views): the seed of new_state, the bytes
    # of an imported position, or a _views.PlayerView (a state resample made for one player).
    cdef object _root
    cdef uint64_t buf[MAX_STATE_WORDS]

    def __cinit__(self):
        if not dimsum_making_state:
            raise TypeError("states come from game.new_state(seed), state_from_bytes or state_from_dict")

    def __init__(self):
        raise TypeError("states come from game.new_state(seed), state_from_bytes or state_from_dict")

    @property
    def game(self):
        return self.game

    @property
    def current_player(self):
        return self.game.api.current_player(self.buf)

    @property
    def is_terminal(self):
        return self.game.api.current_player(self.buf) == TERMINAL

    @property
    def is_chance_node(self):
        """True when chance acts next (only in a game made with ``chance="explicit"``)."""
        return self.game.api.current_player(self.buf) == CHANCE

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def chance_outcomes(self, exact=False):
        """At a chance node, ``[(outcome, probability), ...]`` for every possible outcome, ascending.

        The probabilities are exact ratios of the remaining counts (floats that sum to 1 within
        1e-12; ``fractions.Fraction`` with ``exact=True``). ValueError anywhere else."""
        cdef int16_t outcomes[MAX_ACTIONS]
        cdef uint32_t weights[MAX_ACTIONS]
        cdef int n = self.game.api.chance_outcomes(self.game.config, self.buf, outcomes, weights)
        if n == 0:
            who = "the game is over" if self.is_terminal else f"player {self.current_player} is to act"
            raise ValueError(f"chance_outcomes: this is not a chance node ({who})")
        cdef uint64_t total = 0
        for i in range(n):
            total += weights[i]
        if exact:
            from fractions import Fraction
            return [(outcomes[i], Fraction(weights[i], total)) for i in range(n)]
        return [(outcomes[i], weights[i] / <double>total) for i in range(n)]

    @property
    def hash(self):
        """64-bit Zobrist key of the position (the RNG state is not part of it)."""
        return self.game.api.hash(self.buf)

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def legal_actions(self):
        """The legal actions, sorted; empty when the game is over; the outcomes at a chance node."""
        cdef int16_t actions[MAX_ACTIONS]
        cdef int n = self.game.api.legal_actions(self.game.config, self.buf, actions)
        return _action_list(actions, n)

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def legal_mask(self, out=None):
        """A bool array of shape (num_actions,), True where the action is legal. Fills ``out``
        if given: a writable, C-contiguous numpy bool array of num_actions values."""
        cdef int16_t actions[MAX_ACTIONS]
        cdef int n = self.game.api.legal_actions(self.game.config, self.buf, actions)
        cdef int size = self.game.num_actions
        if out is None:
            mask = _new_array(size, NPY_BOOL, True)
        else:
            mask = _checked_mask_out(out, size)
            memset(PyArray_DATA(<PyArrayObject*>mask), 0, size)
        cdef unsigned char* m = <unsigned char*>PyArray_DATA(<PyArrayObject*>mask)
        for i in range(n):
            m[actions[i]] = 1
        return mask

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def is_legal(self, action):
        cdef int a
        try:
            a = _as_action(action, self.game.num_actions)
        except ValueError:
            return False
        return self.game.api.is_legal(self.game.config, self.buf, a)

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def apply(self, action):
        """Plays ``action``. IllegalActionError (a ValueError) if it is not legal: state unchanged."""
        cdef int a = _as_action(action, self.game.num_actions)
        cdef Game g = self.game
        if not g.api.is_legal(g.config, self.buf, a):
            raise IllegalActionError(self._illegal_message(a))
        g.api.apply(g.config, self.buf, a)
        self._hist = (self._hist, a)
        self._hist_len += 1

    cdef str _illegal_message(self, int a):
        g = self.game
        if self.is_terminal:
            return f"action {a} ({g.action_name(a)}): the game is over"
        if self.is_chance_node:
            return (f"{a} is not a possible outcome of this chance node; the outcomes: "
                    f"{describe_actions(g.spec.chance_space, self.legal_actions())}")
        return (f"action {a} ({g.action_name(a)}) is not legal for player {self.current_player} now; "
                f"legal: {describe_actions(g.spec.action_space, self.legal_actions())}")

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def returns(self):
        """One return per player: final results once terminal (see the game's reward option)."""
        cdef double out[kMaxPlayers]
        self.game.api.returns(self.game.config, self.buf, out)
        return tuple([out[p] for p in range(self.game.players)])

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def observation(self, player, out=None):
        """float32 array of game.observation_shape: what ``player`` may see. Fills ``out`` if given."""
        cdef int p = _as_player(player, self.game.players)
        if out is None:
            arr = _new_array(self.game.observation_size, NPY_FLOAT32, False)
            self.game.api.observe(self.game.config, self.buf, p, <float*>PyArray_DATA(<PyArrayObject*>arr))
            return arr
        numpy()
        cdef PyArrayObject* a = <PyArrayObject*>out
        if (PyArray_Check(out) and PyArray_TYPE(a) == NPY_FLOAT32 and PyArray_IS_C_CONTIGUOUS(a)
                and PyArray_ISWRITEABLE(a) and PyArray_ISNOTSWAPPED(a) and PyArray_ISALIGNED(a)
                and PyArray_SIZE(a) == self.game.observation_size):
            self.game.api.observe(self.game.config, self.buf, p, <float*>PyArray_DATA(a))
            return out
        self._observe_into_buffer(p, out)
        return out

    cdef _observe_into_buffer(self, int p, object out):
        """Any other writable float32 buffer (array.array('f'), a memoryview, ...)."""
        cdef Py_buffer view
        try:
            PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        except (BufferError, TypeError, ValueError):
            raise TypeError(f"observation(out=...) needs a writable C-contiguous float32 buffer, "
                            f"got {type(out).__name__}") from None
        try:
            if view.itemsize != 4 or not _is_float32_format(view.format):
                raise TypeError("observation(out=...) needs a writable C-contiguous float32 buffer in native byte "
                                f"order, got format {view.format.decode() if view.format != NULL else None!r}")
            if (<size_t>view.buf) % 4 != 0:
                raise ValueError("observation(out=...) needs a float32 buffer aligned to 4 bytes; this one is not "
                                 "(numpy.empty gives aligned arrays)")
            if view.len != 4 * self.game.observation_size:
                raise ValueError(f"observation(out=...) needs {self.game.observation_size} float32 values, "
                                 f"got {view.len // 4}")
            self.game.api.observe(self.game.config, self.buf, p, <float*>view.buf)
        finally:
            PyBuffer_Release(&view)

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def clone(self, seed=None):
        """A copy. Without ``seed`` an exact one, future randomness included: a search that plays
        on exact copies knows the coming draws and dice. With ``seed`` the copy's future
        randomness is drawn from ``seed`` instead (a search-safe copy); the position is the same."""
        cdef State s = self.game._blank_state()
        memcpy(s.buf, self.buf, self.game.api.state_size)
        if seed is not None and self._root is not None:
            self._chain()  # the views' root of the copy names a node of it: the copy shares that chain
        self._copy_history_into(s)  # shared, not copied (a TimedState's is its timeline)
        s._root = self._root
        if seed is not None:
            self.game.api.reseed(s.buf, check_seed(seed))
            s._root = _reseeded_root(self, s)
        return s

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    @property
    @cython.critical_section
    def history(self):
        """Actions applied since new_state (or since the state was rebuilt from bytes or a dict)."""
        out = [0] * self._hist_len
        node = self._hist
        cdef Py_ssize_t i = self._hist_len, k
        while node is not None:
            i -= 1
            out[i] = node[1]
            node = node[0]
        cdef _PackedHistory run = self._packed
        if run is not None:  # the run before the chain: entries 0 .. i-1
            for k in range(i):
                out[k] = _ACTION_INTS[run.action(k)]
        return out

    # -- serialization -------------------------------------------------------------------------
    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def to_bytes(self):
        """Header (magic, format, game, version, size, config fingerprint) + the state's bytes."""
        cdef bytes out = PyBytes_FromStringAndSize(NULL, kStateHeaderBytes + self.game.api.state_size)
        self._write_bytes(PyBytes_AS_STRING(out))
        return out

    cdef void _write_bytes(self, char* p) noexcept:
        """to_bytes' header and body at ``p`` (kStateHeaderBytes + state_size bytes): a pickle's
        payload holds them too, written in place."""
        cdef Game g = self.game
        cdef StateBytesHeader header
        memcpy(header.magic, <const char*>MAGIC, 4)
        header.format = BYTES_FORMAT
        header.game_id = g.api.game_id
        header.state_version = g.api.state_version
        header.state_size = g.api.state_size
        header.fingerprint = g.fingerprint
        write_state_header(header, p)
        g.api.write_bytes(self.buf, p + kStateHeaderBytes)

    # -- pickling (the layout: the comment above HISTORY_ENTRY) --------------------------------
    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def __reduce_ex__(self, protocol):
        # pickle asks for __reduce_ex__ first: answering it here skips object.__reduce_ex__'s two
        # lookups of __reduce__ (about 1,400 instructions a dumps).
        return _reduce_state(self)

    @cython.critical_section
    def __reduce__(self):
        return _reduce_state(self)

    cdef Py_ssize_t _pickled_entries(self) noexcept:
        """How many entries the pickle's history holds."""
        return self._hist_len

    cdef Py_ssize_t _pickled_entry_bytes(self) noexcept:
        return HISTORY_ENTRY

    cdef int _write_pickled_entries(self, unsigned char* p, Py_ssize_t n) except -1:
        """The history's last ``n`` actions at ``p``, oldest first, int32 little-endian. The chain
        is walked by borrowed pointers (no reference counts, no tuple checks): its nodes are the tuples
        apply and the loaders build, each of an int in range."""
        cdef PyObject* node = <PyObject*>self._hist
        while node != <PyObject*>None and n > 0:
            n -= 1
            _put_le(p + HISTORY_ENTRY * n, <uint64_t><uint32_t><int><object>_tuple_item(node, 1), 4)
            node = _tuple_item(node, 0)
        _write_run(self._packed, p, n)
        return 0

    def _history_root(self):
        """Where the history starts (dimsum._views): a seed, bytes, or a PlayerView."""
        return self._root

    @cython.critical_section
    def _history_node(self):
        """The newest node of the history chain, ``(previous, action)`` or, for a timed state,
        ``(previous, action, ticks)``; None at the start. Clones share nodes: dimsum._views keeps
        each node's information-state line by the node's identity."""
        return self._chain()

    cdef object _chain(self):
        """The whole history as one chain: a loaded state's packed run is built into nodes (once
        for every copy sharing it) and the state's own nodes since are rebuilt on top of them."""
        if self._packed is None:
            return self._hist
        self._hist = _rebase(self._hist, self._packed.as_chain())
        self._packed = None
        return self._hist

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def fields(self):
        """Every state field by name (see ``game.state_fields``): ints, or lists for shaped fields."""
        cdef int64_t* values = <int64_t*>PyMem_Malloc(max(1, self.game.num_fields) * sizeof(int64_t))
        if values == NULL:
            raise MemoryError()
        try:
            n = self.game.api.export_fields(self.game.config, self.buf, values)
            flat = [values[i] for i in range(n)]
        finally:
            PyMem_Free(values)
        return {f.name: unflatten(f, flat[f.offset:f.offset + f.size]) for f in self.game.state_fields}

    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def field(self, str name):
        """One state field by name (an int, or a list for a shaped field): ``state.field("round")``."""
        cdef Game g = self.game
        cdef int64_t one
        index = g.scalar_index.get(name)
        if index is not None:  # one plain int (a phase, a count): no list, no unflatten
            g.api.read_field(g.config, self.buf, index, &one)
            return one
        index = g.field_index.get(name)
        if index is None:
            raise KeyError(f"{g.name} has no state field {name!r}; the fields are {list(g.field_index)}")
        cdef int64_t small[16]
        cdef int64_t* values = small
        f = g.state_fields[index]
        if f.size > 16:
            values = <int64_t*>PyMem_Malloc(f.size * sizeof(int64_t))
            if values == NULL:
                raise MemoryError()
        try:
            n = g.api.read_field(g.config, self.buf, index, values)
            return unflatten(f, [values[i] for i in range(n)])
        finally:
            if values != small:
                PyMem_Free(values)

    def to_dict(self):
        """The readable form of the position (see docs/rules/<game>.md); state_from_dict reads it."""
        return self.game.module.dict_from_fields(self.game.spec, self.fields())

    cdef _check_valid(self):
        cdef char err[ERR_LEN]
        if not self.game.api.validate(self.game.config, self.buf, err, ERR_LEN):
            raise ValueError(err.decode())
        if self.game.api.compute_hash(self.game.config, self.buf) != self.game.api.hash(self.buf):
            raise ValueError(f"{self.game.name} state: the stored hash does not match the position (corrupt bytes)")

    def check(self):
        """Validates this state's invariants and hash (ValueError if broken); for tests and tools."""
        self._check_valid()

    def resample(self, player, seed):
        """A full state consistent with everything ``player`` has seen: what ``player`` cannot see
        (the others' hidden cards, the future draws and dice) is drawn from ``seed``.

        The history is kept (see docs/API.md, "Search-safe copies"): ``player``'s observation
        and information state are those of this state. When the position itself changed (hidden
        cards redrawn), the other players' information states are not defined on the copy."""
        cdef int p = _as_player(player, self.game.players)
        cdef uint64_t s = check_seed(seed)
        cdef State out = self.game._blank_state()
        self.game.api.resample(self.game.config, self.buf, p, s, out.buf)
        self._copy_history_into(out)
        from dimsum._views import finish_resample
        history, out._root = finish_resample(self, out, p, s)
        if history is not None:  # the hidden outcomes redrawn with the cards (explicit mode)
            out._packed = _run_of_actions(self.game, history)
            out._hist = None
            out._hist_len = len(history)
        return out

    cdef void _copy_history_into(self, State out) noexcept:
        """What a copy (clone, resample) shares of the history: here the action chain; a
        TimedState shares its timeline."""
        out._hist = self._hist
        out._packed = self._packed
        out._hist_len = self._hist_len

    def observation_string(self, player):
        """What ``player`` may see now, as text: the same information as ``observation(player)``."""
        from dimsum._views import observation_string
        return observation_string(self, _as_player(player, self.game.players))

    def information_state_string(self, player):
        """``player``'s perfect-recall view: everything it has observed since the history began, in
        order. Two states give the same string exactly when ``player`` cannot tell them apart."""
        from dimsum._views import information_state_string
        return information_state_string(self, _as_player(player, self.game.players))

    def information_state_key(self, player):
        """A 128-bit int that is equal for two states exactly when their
        ``information_state_string(player)`` are (a hash of the string, kept along the history:
        O(1) a call after the first), for search trees and tables keyed by information state."""
        from dimsum._views import information_state_key
        return information_state_key(self, _as_player(player, self.game.players))

    def action_name(self, action):
        """The name of ``action`` here: a chance outcome's name at a chance node."""
        if self.game.api.current_player(self.buf) == CHANCE:
            return self.game.spec.chance_space.name(action)
        return self.game.spec.action_space.name(action)

    def parse_action(self, text):
        if self.game.api.current_player(self.buf) == CHANCE:
            return self.game.spec.chance_space.parse(text)
        return self.game.spec.action_space.parse(text)

    @property
    def outcome(self):
        """Why the game ended and what it paid (a dimsum.Outcome), or None while it runs."""
        if not self.is_terminal:
            return None
        from dimsum._views import outcome
        return outcome(self)

    # -- comparisons and display ---------------------------------------------------------------
    @cython.critical_section  # free-threaded Python: one thread at a time on a state
    def __eq__(self, other):
        if not isinstance(other, State) or (<State>other).game != self.game:
            return NotImplemented
        return memcmp(self.buf, (<State>other).buf, self.game.api.state_size) == 0

    __hash__ = None  # mutable; use state.hash for the position key

    def __str__(self):
        """The omniscient picture: every hidden card shown (observation_string(p) is p's view)."""
        return self.game.module.render(self.to_dict()) + "\n" + OMNISCIENT_NOTE

    def __repr__(self):
        return f"<{self.game.name} state, player {self.current_player} to act, hash {self.hash:016x}>"

    def to_svg(self, player=None):
        """The table as an SVG picture (a str): every card shown when ``player`` is None, else
        exactly what ``player`` may see (docs/PICTURES.md). Drawn by ``dimsum.render``."""
        from dimsum.render import to_svg
        return to_svg(self, player)

    def _repr_svg_(self):
        """Jupyter shows a state as its picture (the whole table)."""
        from dimsum.render import to_svg
        return to_svg(self, None)


# ---------------------------------------------------------------------------------------------

include "_timed.pxi"


def _reseeded_root(State original, State copy):
    """The views' root of a copy with a new generator (dimsum._views.Reseeded): the history the
    copy shares is told as before, what it plays next is replayed with its own future."""
    from dimsum._views import reseeded_root
    return reseeded_root(original, copy)


include "_pickle.pxi"


cdef bint _is_float32_format(const char* fmt) noexcept:
    if fmt == NULL:
        return False
    # native order only: '@' and '=' are native; '<' only on a little-endian machine
    if fmt[0] == b'=' or fmt[0] == b'@' or (fmt[0] == b'<' and _little_endian()):
        fmt += 1
    return fmt[0] == b'f' and fmt[1] == 0


cdef inline bint _little_endian() noexcept:
    cdef uint16_t one = 1
    return (<unsigned char*>&one)[0] == 1


cdef inline int _as_player(object player, int players) except? -1:
    if type(player) is int and 0 <= player < players:
        return <int>player
    return check_int(player, "player", 0, players - 1)


cdef inline int _as_action(object action, int num_actions) except? -1:
    """An action int from a Python value, or TypeError/IllegalActionError saying what is allowed."""
    cdef long a
    if type(action) is int:
        try:
            a = action
        except OverflowError:
            raise IllegalActionError(f"action {action} is out of range: actions are 0..{num_actions - 1}") from None
    elif isinstance(action, numbers.Integral) and not isinstance(action, bool):
        try:
            a = int(action)
        except OverflowError:  # a numpy uint64 of 2**63 or more
            raise IllegalActionError(f"action {action} is out of range: actions are 0..{num_actions - 1}") from None
    else:
        raise TypeError(f"an action is an int in [0, {num_actions}), got {type(action).__name__} {action!r:.40}")
    if a < 0 or a >= num_actions:
        raise IllegalActionError(f"action {a} is out of range: actions are 0..{num_actions - 1}")
    return <int>a
