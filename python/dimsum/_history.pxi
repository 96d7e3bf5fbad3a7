# Included by _core.pyx (textually, at this point of the module): a state's history, packed.

# A loaded state's history, packed: the entries exactly as the pickle holds them (the layout above
# HISTORY_ENTRY), read in place from the pickle's own payload. Rebuilding the history as one tuple
# per action made pickle.loads super-linear in the depth (each a GC-tracked object: 16,000 decisions
# loaded 4x slower per decision than 1,000); packed, a load is the entries' range check and a copy
# shares it. A state's history is its packed run (oldest first) then its chain of nodes (what it
# applied since; the chain's bottom node continues the run). The chain the views walk by node
# identity (dimsum._views) is built from the run when first asked for, once for every copy. Not
# tracked by the cycle collector: it holds bytes and a chain of tuples of ints, which reach no cycle.
@cython.final
@cython.no_gc
cdef class _PackedHistory:
    cdef bytes data            # holds the entries, from ``offset``: little-endian, ``width`` bytes each
    cdef Py_ssize_t offset
    cdef Py_ssize_t count      # entries
    cdef Py_ssize_t actions    # of which actions (a timeline's advances, action -1, are not)
    cdef int width             # HISTORY_ENTRY, or TIMELINE_ENTRY for a timed game's timeline
    cdef object chain          # the entries as chain nodes (State.apply's), once built
    cdef bint chained

    cdef inline const unsigned char* at(self, Py_ssize_t i) noexcept:
        return <const unsigned char*>PyBytes_AS_STRING(self.data) + self.offset + self.width * i

    cdef inline int action(self, Py_ssize_t i) noexcept:
        return <int><uint32_t>_get_le(self.at(i), 4)

    cdef inline int64_t ticks(self, Py_ssize_t i) noexcept:
        return <int64_t>_get_le(self.at(i) + 4, 8)

    cdef object as_chain(self):
        """The run as a chain of nodes, ``(previous, action)`` or ``(previous, action, ticks)``,
        built on first call and shared by every state holding this run."""
        cdef Py_ssize_t i
        cdef int a
        with cython.critical_section(self):  # free-threaded Python: states sharing the run build it once
            if not self.chained:
                node = None
                for i in range(self.count):
                    a = self.action(i)
                    if self.width == HISTORY_ENTRY:
                        node = (node, _ACTION_INTS[a])
                    else:
                        node = (node, a, self.ticks(i))
                self.chain = node
                self.chained = True
            return self.chain


cdef _PackedHistory _checked_run(Game game, bytes data, Py_ssize_t offset):
    """The pickled history (a timed game: the timeline) in ``data`` from ``offset`` to the end, each
    entry checked (a pickle is untrusted input), as a packed run; None when it is empty."""
    cdef Py_ssize_t size = len(data) - offset
    cdef Py_ssize_t width = TIMELINE_ENTRY if game.timed else HISTORY_ENTRY
    cdef Py_ssize_t i, n, actions = 0
    cdef const unsigned char* p = <const unsigned char*>PyBytes_AS_STRING(data) + offset
    cdef int action
    cdef int64_t ticks
    if size % width:
        raise ValueError(f"a pickled {game.name} {'timeline' if game.timed else 'history'} is {width} bytes "
                         f"an entry, got {size} bytes")
    n = size // width
    if n == 0:
        return None
    if not game.timed:
        for i in range(n):
            action = <int><uint32_t>_get_le(p + HISTORY_ENTRY * i, 4)
            if action < 0 or action >= game.num_actions:
                _check_action(game, action)  # raises, saying what is allowed
        actions = n
    else:
        for i in range(n):
            action = <int><uint32_t>_get_le(p + TIMELINE_ENTRY * i, 4)
            ticks = <int64_t>_get_le(p + TIMELINE_ENTRY * i + 4, 8)
            _check_timeline_entry(game, action, ticks)
            actions += action != -1
    cdef _PackedHistory run = _PackedHistory.__new__(_PackedHistory)
    run.data = data
    run.offset = offset
    run.count = n
    run.actions = actions
    run.width = <int>width
    return run


cdef _PackedHistory _run_of_actions(Game game, history):
    """A history given as ints (a resample's rewritten one) as a packed run."""
    cdef Py_ssize_t n = len(history), i = 0
    if n == 0:
        return None
    cdef bytes data = PyBytes_FromStringAndSize(NULL, HISTORY_ENTRY * n)
    cdef unsigned char* p = <unsigned char*>PyBytes_AS_STRING(data)
    for a in history:
        _put_le(p + HISTORY_ENTRY * i, <uint64_t><uint32_t><int>_as_action(a, game.num_actions), 4)
        i += 1
    return _checked_run(game, data, 0)


cdef inline void _write_run(_PackedHistory run, unsigned char* p, Py_ssize_t n) noexcept:
    """A packed run's last ``n`` entries at ``p``: already the pickle's bytes, one copy."""
    if run is not None and n > 0:
        memcpy(p, run.at(run.count - n), run.width * n)


cdef object _rebase(object node, object base):
    """The chain ``node`` (whose bottom node continues a packed run) rebuilt on ``base``, the
    run's own chain: the same entries, with nodes that reach back through the whole history."""
    entries = []
    while node is not None:
        entries.append(node[1:])
        node = node[0]
    for i in range(len(entries) - 1, -1, -1):
        base = (base,) + entries[i]
    return base
