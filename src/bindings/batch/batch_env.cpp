// _BatchEnv: the C++ engine is dimsum::BatchEnv<G> (src/dimsum_core/batch/batch_env.hpp); this
// class owns its output arrays (allocated once, handed back as the same numpy objects every
// step), parses actions, and releases the GIL around the work. dimsum.BatchEnv (python/dimsum/
// _batch_env.py) subclasses it for the Python-side parts (game object, messages, clone_state).
#include <pybind11/gil_safe_call_once.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bindings.hpp"
#include "dimsum_core/batch/batch_env.hpp"
#include "dimsum_core/batch/opponent_env.hpp"
#include "dimsum_core/bots/policy_net.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {
namespace {

using namespace pybind11::literals;

constexpr int kErrLen = 512;

// dimsum._batch.IllegalAction(env, action): step found env's action out of range or illegal
// and moved no env. A plain ValueError carrying the two ints; dimsum.BatchEnv turns it into an
// IllegalActionError with a readable message.
PYBIND11_CONSTINIT py::gil_safe_call_once_and_store<py::object> illegal_action_type;

[[noreturn]] void raise_illegal(int env, py::handle action) {
  PyErr_SetObject(illegal_action_type.get_stored().ptr(), py::make_tuple(env, action).ptr());
  throw py::error_already_set();
}

template <class T>
py::array_t<T> zeros(std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);
  std::fill_n(a.mutable_data(), a.size(), T{});
  return a;
}

// numpy's byte order mark of a non-native dtype on this machine.
constexpr char kSwapped = std::endian::native == std::endian::little ? '>' : '<';

// step's actions as a numpy array of a native integer dtype and shape (n,) (any width, any
// stride, aligned or not), checked. Made before the env's lock is taken: converting an
// array-like runs its Python code (__array__, __len__, __getitem__), which may call this env.
struct Actions {
  py::array array;  // keeps `data` alive
  const char* data = nullptr;
  py::ssize_t stride = 0;
  py::ssize_t itemsize = 0;
  bool is_signed = true;

  // Action i, as an int64: a uint64 beyond INT64_MAX becomes INT64_MAX (out of range all the
  // same). Plain memory reads (memcpy: the array may be misaligned), no Python: safe under the lock.
  int64_t get(int i) const {
    const char* p = data + i * stride;
    switch (itemsize) {
      case 1: return is_signed ? int64_t{read<int8_t>(p)} : int64_t{read<uint8_t>(p)};
      case 2: return is_signed ? int64_t{read<int16_t>(p)} : int64_t{read<uint16_t>(p)};
      case 4: return is_signed ? int64_t{read<int32_t>(p)} : int64_t{read<uint32_t>(p)};
      default: {
        const uint64_t bits = read<uint64_t>(p);
        return is_signed ? static_cast<int64_t>(bits) : static_cast<int64_t>(std::min<uint64_t>(bits, INT64_MAX));
      }
    }
  }

  // Action i exactly as given (a uint64 beyond INT64_MAX too), for an error message.
  py::object exact(int i) const {
    if (!given.is_none()) return given[py::int_(i)];
    if (itemsize == 8 && !is_signed) return py::int_(read<uint64_t>(data + i * stride));
    return py::int_(get(i));
  }

  py::object given = py::none();  // the Python ints given, when some lie beyond int64

  template <class T>
  static T read(const char* p) {
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
  }
};

// numpy turns a list of ints of which one lies beyond int64 into floats ([0, 2**63]: float64,
// 2**63 + 5 rounded) or objects ([0, 2**64]). If `obj` is such a list of ints (Python ints,
// numpy integers), Actions of int64 with those values clamped to int64 (out of range all the
// same) that report the exact values given; else none (not integers: refused as before).
std::optional<Actions> ints_beyond_int64(py::handle obj, int n) {
  const py::array objects = py::module_::import("numpy").attr("asarray")(obj, "dtype"_a = "O");
  if (objects.ndim() != 1 || objects.shape(0) != n) return std::nullopt;
  const py::object integer = py::module_::import("numpy").attr("integer");
  py::list given(n);
  py::array_t<int64_t> clamped(n);
  int64_t* out = clamped.mutable_data();
  for (int i = 0; i < n; ++i) {
    const py::object x = objects[py::int_(i)];
    if (PyBool_Check(x.ptr()) || !(PyLong_Check(x.ptr()) || py::isinstance(x, integer))) return std::nullopt;
    const py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(x.ptr()));
    if (!value) throw py::error_already_set();
    int overflow = 0;
    out[i] = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0) out[i] = overflow > 0 ? INT64_MAX : INT64_MIN;
    given[static_cast<size_t>(i)] = value;
  }
  Actions a;
  a.array = clamped;
  a.data = static_cast<const char*>(a.array.data());
  a.stride = a.array.strides(0);
  a.itemsize = 8;
  a.given = given;
  return a;
}

Actions convert_actions(py::handle obj, int n) {
  Actions a;
  a.array = py::array::ensure(obj);
  if (!a.array) throw py::type_error("actions must be an integer array-like of shape (num_envs,)");
  const char kind = a.array.dtype().kind();
  if (kind == 'O' || (kind == 'f' && !py::isinstance<py::array>(obj))) {
    if (auto ints = ints_beyond_int64(obj, n)) return std::move(*ints);
  }
  if (kind != 'i' && kind != 'u') {
    throw py::type_error("actions must be integers, got an array of dtype " +
                         py::str(a.array.dtype()).cast<std::string>());
  }
  if (a.array.ndim() != 1 || a.array.shape(0) != n) {
    throw py::value_error("actions must have shape (num_envs,) = (" + std::to_string(n) + ",), got shape " +
                          py::str(a.array.attr("shape")).cast<std::string>());
  }
  if (a.array.dtype().byteorder() == kSwapped) {
    // the same kind and width in native order: '>u8' stays unsigned, so 2**63 stays 2**63
    a.array = a.array.attr("astype")(a.array.dtype().attr("newbyteorder")("="));
  }
  a.itemsize = a.array.itemsize();
  if (a.itemsize != 1 && a.itemsize != 2 && a.itemsize != 4 && a.itemsize != 8) {
    throw py::type_error("actions must be integers of 1, 2, 4 or 8 bytes, got an array of dtype " +
                         py::str(a.array.dtype()).cast<std::string>());
  }
  a.data = static_cast<const char*>(a.array.data());
  a.stride = a.array.strides(0);
  a.is_signed = kind == 'i';
  return a;
}

class PyBatchEnv {
 public:
  // config, state_size, state_version: Game.config_bytes(), Game.state_size, Game.version[0].
  // learner_seats empty: step takes every seat's actions; else one seat per env, whose actions
  // step takes, the others played in C++ by the policy named `opponent` (opponent_env.hpp), and
  // step's rewards and final observations are that seat's (every_seat_final: every seat's final
  // observations, an explicit request; without a learner seat they are always every seat's).
  PyBatchEnv(const std::string& game, const py::bytes& config, int64_t state_size, int64_t state_version,
             int num_envs, uint64_t seed, int threads, int max_steps, std::vector<int> learner_seats,
             const std::string& opponent, bool every_seat_final, const bots::PolicyNet* opponent_net)
      : learner_seats_(learner_seats), learner_final_only_(!learner_seats.empty() && !every_seat_final) {
    if (num_envs < 1) throw py::value_error("num_envs must be >= 1");
    if (threads < 1) throw py::value_error("threads must be >= 1");
    // a copy the env owns: the Python PolicyNet may go away while the env lives
    std::shared_ptr<const bots::PolicyNet> net;
    if (opponent_net != nullptr) net = std::make_shared<const bots::PolicyNet>(*opponent_net);
    bool found;
    try {
      found = dispatch_game(game.c_str(), [&]<class G>() {
        const auto c = config_from_bytes<G>(config, state_size, state_version);
        env_ = learner_seats.empty()
                   ? make_batch_env<G>(c, num_envs, seed, threads, max_steps)
                   : make_opponent_env<G>(c, num_envs, seed, threads, max_steps, learner_seats, opponent,
                                          every_seat_final, net);
      });
    } catch (const ThreadStartError& e) {
      raise_thread_start_error("BatchEnv", e);
    } catch (const std::invalid_argument& e) {
      throw py::value_error(e.what());
    }
    if (!found) throw py::value_error("game " + game + " is not compiled into this build of dimsum");
    const auto& info = env_->info();
    const py::ssize_t n = num_envs, players = info.players, obs = info.observation_size;
    obs_ = zeros<float>({n, obs});
    rewards_ = zeros<double>({n, players});
    terminated_ = zeros<bool>({n});
    truncated_ = zeros<bool>({n});
    current_player_ = zeros<int32_t>({n});
    legal_mask_ = zeros<bool>({n, static_cast<py::ssize_t>(info.num_actions)});
    no_final_observation_ = zeros<float>(final_shape(0, env_->final_observations().views));
    no_final_envs_ = zeros<int32_t>({0});
    final_returns_ = zeros<double>({n, players});
    sampled_ = zeros<int64_t>({n});
    seat_rewards_ = zeros<double>({n});
    actions_.resize(static_cast<size_t>(n));
    ticks_.resize(static_cast<size_t>(n));
    BatchOutputs out;
    out.obs = obs_.mutable_data();
    out.rewards = rewards_.mutable_data();
    out.terminated = terminated_.mutable_data();
    out.truncated = truncated_.mutable_data();
    out.current_player = current_player_.mutable_data();
    out.legal_mask = legal_mask_.mutable_data();
    out.final_returns = final_returns_.mutable_data();
    env_->set_outputs(out);
    {
      py::gil_scoped_release release;
      env_->reset(seed);
    }
    check_fault();
  }

  static py::tuple reset(py::object self, py::object seed) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    const uint64_t s = seed.is_none() ? e.env_->seed() : seed.cast<uint64_t>();
    {
      Lock lock(e);
      py::gil_scoped_release release;
      e.env_->reset(s);
    }
    e.check_fault();
    py::dict info;
    info["current_player"] = e.current_player_;
    info["legal_mask"] = e.legal_mask_;
    return py::make_tuple(e.obs_, info);
  }

  // ticks: None, or (timed games) what each env's action took, already checked by
  // dimsum.BatchEnv (_check_ticks): an int64 array of shape (num_envs,), checked here again.
  static py::tuple step(py::object self, py::handle actions, bool copy, py::handle ticks) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    const int n = e.env_->num_envs();
    const Actions given = convert_actions(actions, n);  // Python code may run: not under the lock
    std::optional<py::array_t<int64_t, py::array::c_style | py::array::forcecast>> given_ticks;
    if (!ticks.is_none()) given_ticks = checked_ticks(*e.env_, ticks, n);
    int bad;
    FinalObservations final;
    std::vector<int32_t> final_envs;
    {
      Lock lock(e);
      for (int i = 0; i < n; ++i) e.actions_[static_cast<size_t>(i)] = given.get(i);
      if (given_ticks) std::copy_n(given_ticks->data(), n, e.ticks_.data());
      {
        py::gil_scoped_release release;
        // checks every action first: all or nothing
        bad = e.env_->step(e.actions_.data(), given_ticks ? e.ticks_.data() : nullptr);
      }
      if (bad < 0 && !e.learner_seats_.empty()) e.write_seat_rewards();
      final = e.env_->final_observations();
      final_envs.assign(final.envs, final.envs + final.count);  // no Python object under the lock
    }
    e.check_fault();  // before the illegal action: an env at fault refuses every action
    if (bad >= 0) raise_illegal(bad, given.exact(bad));
    py::dict info;
    info["current_player"] = maybe_copy(e.current_player_, copy);
    info["legal_mask"] = maybe_copy(e.legal_mask_, copy);
    if (final.count == 0) {
      info["final_observation"] = e.no_final_observation_;  // (0, players, obs): nothing to overwrite
      info["final_envs"] = e.no_final_envs_;
    } else {
      info["final_observation"] = maybe_copy(e.final_view(final), copy);
      py::array_t<int32_t> envs(static_cast<py::ssize_t>(final.count));
      std::copy(final_envs.begin(), final_envs.end(), envs.mutable_data());
      info["final_envs"] = envs;
    }
    info["final_returns"] = maybe_copy(e.final_returns_, copy);
    const py::array& rewards = e.learner_seats_.empty() ? py::array(e.rewards_) : py::array(e.seat_rewards_);
    return py::make_tuple(maybe_copy(e.obs_, copy), maybe_copy(rewards, copy), maybe_copy(e.terminated_, copy),
                          maybe_copy(e.truncated_, copy), info);
  }

  static py::array sample_actions(py::object self, uint64_t seed) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    int64_t* out = e.sampled_.mutable_data();
    {
      Lock lock(e);
      py::gil_scoped_release release;
      e.env_->sample_actions(seed, out);
    }
    return e.sampled_;
  }

  py::bytes state_bytes(int i) {
    check_env(i);
    std::string raw(env_->state_size(), '\0');
    {
      Lock lock(*this);
      env_->get_state(i, raw.data());
    }
    return py::bytes(raw);  // made once the lock is released: no Python object is made under it
  }

  void set_state_bytes(int i, const py::bytes& data, int steps) {
    check_env(i);
    const std::string raw = data;
    if (raw.size() != env_->state_size()) {
      throw py::value_error("state bytes must be " + std::to_string(env_->state_size()) + " long");
    }
    char err[kErrLen] = "";
    bool ok;
    {
      Lock lock(*this);
      ok = env_->set_state(i, raw.data(), steps, err, kErrLen);
    }
    if (!ok) throw py::value_error(err);
  }

  const BatchEnvBase& env() const { return *env_; }

 private:
  // Serializes calls on one env (its arrays and states are shared). No Python code runs while
  // it is held: every entry point converts its Python inputs before taking it (an actions
  // object's __array__ may call this very env) and makes its Python results after releasing
  // it. When another thread holds it, it is waited for with the GIL released, so that the
  // waiting thread never blocks the thread that holds it; uncontended, try_lock takes it
  // without a GIL round trip. Should this thread itself hold it (Python code run under it
  // after all, calling back into the env), the mutex is not recursive and waiting would never
  // end: that raises RuntimeError instead.
  class Lock {
   public:
    explicit Lock(PyBatchEnv& e) : e_(e) {
      if (!e_.mutex_.try_lock()) {
        if (e_.owner_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
          throw std::runtime_error(
              "BatchEnv: re-entrant call: this env is already busy with a call on this same thread "
              "(Python code run inside that call, such as a callback of its arguments, called the env "
              "again); waiting for it would deadlock. Call the env again once the first call has returned.");
        }
        py::gil_scoped_release release;
        e_.mutex_.lock();
      }
      e_.owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    }
    ~Lock() {
      e_.owner_.store(std::thread::id(), std::memory_order_relaxed);
      e_.mutex_.unlock();
    }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

   private:
    PyBatchEnv& e_;
  };

 public:
  // A test hook (tests/test_hardening_batch.py): calls f() while holding the env's lock, the
  // only way Python code can run under it, so that the re-entrancy guard can be shown to work.
  static py::object call_locked(py::object self, py::object f) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    Lock lock(e);
    return f();
  }

 private:
  void check_env(int i) const {
    if (i < 0 || i >= env_->num_envs()) {
      throw py::index_error("env index " + std::to_string(i) + " out of range [0, " +
                            std::to_string(env_->num_envs()) + ")");
    }
  }

  static py::object maybe_copy(const py::array& a, bool copy) { return copy ? a.attr("copy")() : py::object(a); }

  // RuntimeError if the env cannot go on (BatchEnvBase::fault).
  void check_fault() const {
    if (const char* why = env_->fault()) throw std::runtime_error(why);
  }

  // ticks as an int64 array of shape (n,), every value one the game accepts (ValueError naming
  // the first env whose value it refuses). Converted before the lock (numpy may run Python code).
  static py::array_t<int64_t, py::array::c_style | py::array::forcecast> checked_ticks(const BatchEnvBase& env,
                                                                                      py::handle ticks, int n) {
    auto t = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(ticks);
    if (!t || t.ndim() != 1 || t.shape(0) != n) {
      throw py::value_error("ticks must be None, an int, or an int64 array of shape (num_envs,) = (" +
                            std::to_string(n) + ",)");
    }
    char err[kErrLen] = "";
    for (int i = 0; i < n; ++i) {
      if (!env.check_ticks(t.data()[i], err, kErrLen)) {
        throw py::value_error("BatchEnv.step: env " + std::to_string(i) + ": " + err + "; no env has moved");
      }
    }
    return t;
  }

  // The learner seat's reward per env (opponent mode): its return on the step its game ended by
  // the rules, 0 otherwise (a truncated game has no result; its returns are in final_returns).
  void write_seat_rewards() {
    const int players = env_->info().players;
    const double* all = rewards_.data();
    const bool* terminated = terminated_.data();
    double* out = seat_rewards_.mutable_data();
    for (int i = 0, n = env_->num_envs(); i < n; ++i) {
      const size_t row = static_cast<size_t>(i);
      out[i] = terminated[i] ? all[row * static_cast<size_t>(players) + static_cast<size_t>(learner_seats_[row])] : 0.0;
    }
  }

  // The first final.count rows of the final observations' buffer as a numpy array, no copy: its
  // base holds a reference to the buffer, so the array stays valid after the buffer grew (the
  // env then writes to a new one). Made per call, no state shared between calls: the module
  // runs without the GIL, and this runs outside the env's lock.
  py::array final_view(const FinalObservations& final) const {
    using Buffer = std::shared_ptr<std::vector<float>>;
    py::capsule base(new Buffer(final.buffer), [](void* p) { delete static_cast<Buffer*>(p); });
    return py::array_t<float>(final_shape(final.count, final.views), final.buffer->data(), base);
  }

  // info["final_observation"]'s shape for `count` ended envs of `views` views each, as the engine
  // wrote them (FinalObservations): (count, observation_size), the learner's view (the
  // learner-seat default, views == 1), or (count, views, observation_size), every seat's
  // (every-seat mode, or asked for).
  std::vector<py::ssize_t> final_shape(int count, int views) const {
    const py::ssize_t obs = env_->info().observation_size;
    if (learner_final_only_) return {count, obs};
    return {count, views, obs};
  }

  std::unique_ptr<BatchEnvBase> env_;
  py::array_t<float> obs_, no_final_observation_;
  py::array_t<int32_t> no_final_envs_;  // info's empty arrays when no env ended (most steps)
  py::array_t<double> rewards_, final_returns_;
  py::array_t<bool> terminated_, truncated_, legal_mask_;
  py::array_t<int32_t> current_player_;
  py::array_t<int64_t> sampled_;
  py::array_t<double> seat_rewards_;  // [num_envs], the learner seat's (opponent mode)
  std::vector<int> learner_seats_;  // env i's learning seat (opponent mode), or empty
  bool learner_final_only_;         // final observations are the learner's alone (one view per env)
  std::vector<int64_t> actions_;
  std::vector<int64_t> ticks_;
  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};  // the thread holding mutex_, or none (a default id)
};

}  // namespace

void register_batch_env(py::module_& m) {
  illegal_action_type.call_once_and_store_result([] {
    PyObject* type = PyErr_NewExceptionWithDoc(
        "dimsum._batch.IllegalAction",
        "args (env, action): env's action is out of range or illegal; step moved no env. "
        "dimsum.BatchEnv raises dimsum.IllegalActionError instead.",
        PyExc_ValueError, nullptr);
    if (type == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(type);
  });
  m.attr("IllegalAction") = illegal_action_type.get_stored();

  py::class_<PyBatchEnv>(m, "_BatchEnv", "The C++ side of dimsum.BatchEnv (use that).")
      .def(py::init<const std::string&, const py::bytes&, int64_t, int64_t, int, uint64_t, int, int, std::vector<int>,
                    const std::string&, bool, const bots::PolicyNet*>(),
           py::arg("game"), py::arg("config"), py::arg("state_size"), py::arg("state_version"), py::arg("num_envs"),
           py::arg("seed"), py::arg("threads"), py::arg("max_steps"), py::arg("learner_seats") = std::vector<int>{},
           py::arg("opponent") = "random", py::arg("every_seat_final") = false,
           py::arg("opponent_net") = py::none())
      .def("reset", &PyBatchEnv::reset, py::arg("seed") = py::none(),
           "Deals game 0 of every env (from a new base seed if given); returns (obs, info).")
      .def("step", &PyBatchEnv::step, py::arg("actions"), py::arg("copy") = false, py::arg("ticks") = py::none(),
           "One action per env; returns (obs, rewards, terminated, truncated, info). See docs/API.md. "
           "Raises IllegalAction(env, action), moving no env, if any action is illegal.")
      .def("sample_actions", &PyBatchEnv::sample_actions, py::arg("seed"),
           "One uniformly random legal action per env (env i from derive_seed(seed ^ salt, i)); the same "
           "int64 array every call, overwritten.")
      .def("_call_locked", &PyBatchEnv::call_locked, py::arg("f"),
           "Test hook: calls f() while holding the env's lock (a call on the env from f raises RuntimeError).")
      .def("_state_bytes", &PyBatchEnv::state_bytes, py::arg("i"))
      .def("_set_state_bytes", &PyBatchEnv::set_state_bytes, py::arg("i"), py::arg("data"), py::arg("steps"))
      .def_property_readonly("num_envs", [](const PyBatchEnv& e) { return e.env().num_envs(); })
      .def_property_readonly("timed", [](const PyBatchEnv& e) { return e.env().timed(); })
      .def_property_readonly("threads", [](const PyBatchEnv& e) { return e.env().threads(); })
      .def_property_readonly("seed", [](const PyBatchEnv& e) { return e.env().seed(); })
      .def_property_readonly("max_episode_steps", [](const PyBatchEnv& e) { return e.env().max_steps(); })
      .def_property_readonly("num_actions", [](const PyBatchEnv& e) { return e.env().info().num_actions; })
      .def_property_readonly("players", [](const PyBatchEnv& e) { return e.env().info().players; })
      .def_property_readonly("observation_size", [](const PyBatchEnv& e) { return e.env().info().observation_size; });
}

}  // namespace dimsum::bindings
