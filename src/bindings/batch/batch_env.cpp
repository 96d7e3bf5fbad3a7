// _BatchEnv: the C++ engine is dimsum::BatchEnv<G> (src/dimsum_core/batch/batch_env.hpp); this
// class owns its output arrays (allocated once, handed back as the same numpy objects every
// step), parses actions, and releases the GIL around the work. dimsum.BatchEnv (python/dimsum/
// _batch_env.py) subclasses it for the Python-side parts (game object, messages, clone_state).
#include <pybind11/gil_safe_call_once.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "dimsum_core/batch/batch_env.hpp"
#include "dimsum_core/games.hpp"

namespace dimsum::bindings {
namespace {

constexpr int kErrLen = 512;

// dimsum._batch.IllegalAction(env, action): step found env's action out of range or illegal
// and moved no env. A plain ValueError carrying the two ints; dimsum.BatchEnv turns it into an
// IllegalActionError with a readable message.
PYBIND11_CONSTINIT py::gil_safe_call_once_and_store<py::object> illegal_action_type;

[[noreturn]] void raise_illegal(int env, int64_t action) {
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

// Reads one int per env from any integer array-like of shape (n,) (any int width, any stride).
void read_actions(py::handle obj, int n, int64_t* out) {
  py::array arr = py::array::ensure(obj);
  if (!arr) throw py::type_error("actions must be an integer array-like of shape (num_envs,)");
  const char kind = arr.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    throw py::type_error("actions must be integers, got an array of dtype " + py::str(arr.dtype()).cast<std::string>());
  }
  if (arr.ndim() != 1 || arr.shape(0) != n) {
    throw py::value_error("actions must have shape (num_envs,) = (" + std::to_string(n) + ",), got shape " +
                          py::str(arr.attr("shape")).cast<std::string>());
  }
  if (arr.dtype().byteorder() == kSwapped) arr = arr.attr("astype")("int64");
  const char* data = static_cast<const char*>(arr.data());
  const py::ssize_t stride = arr.strides(0);
  const bool is_signed = kind == 'i';
  for (int i = 0; i < n; ++i, data += stride) {
    switch (arr.itemsize()) {
      case 1: out[i] = is_signed ? *reinterpret_cast<const int8_t*>(data) : *reinterpret_cast<const uint8_t*>(data); break;
      case 2: out[i] = is_signed ? *reinterpret_cast<const int16_t*>(data) : *reinterpret_cast<const uint16_t*>(data); break;
      case 4: out[i] = is_signed ? *reinterpret_cast<const int32_t*>(data) : *reinterpret_cast<const uint32_t*>(data); break;
      default: {
        const uint64_t bits = *reinterpret_cast<const uint64_t*>(data);
        out[i] = is_signed ? static_cast<int64_t>(bits) : static_cast<int64_t>(std::min<uint64_t>(bits, INT64_MAX));
      }
    }
  }
}

class PyBatchEnv {
 public:
  // config, state_size, state_version: Game.config_bytes(), Game.state_size, Game.version[0].
  PyBatchEnv(const std::string& game, const py::bytes& config, int64_t state_size, int64_t state_version,
             int num_envs, uint64_t seed, int threads, int max_steps) {
    if (num_envs < 1) throw py::value_error("num_envs must be >= 1");
    if (threads < 1) throw py::value_error("threads must be >= 1");
    bool found;
    try {
      found = dispatch_game(game.c_str(), [&]<class G>() {
        env_ = make_batch_env<G>(config_from_bytes<G>(config, state_size, state_version), num_envs, seed, threads,
                                 max_steps);
      });
    } catch (const ThreadStartError& e) {
      raise_thread_start_error("BatchEnv", e);
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
    final_observation_ = zeros<float>({n, players, obs});
    final_returns_ = zeros<double>({n, players});
    sampled_ = zeros<int64_t>({n});
    actions_.resize(static_cast<size_t>(n));
    BatchOutputs out;
    out.obs = obs_.mutable_data();
    out.rewards = rewards_.mutable_data();
    out.terminated = terminated_.mutable_data();
    out.truncated = truncated_.mutable_data();
    out.current_player = current_player_.mutable_data();
    out.legal_mask = legal_mask_.mutable_data();
    out.final_observation = final_observation_.mutable_data();
    out.final_returns = final_returns_.mutable_data();
    env_->set_outputs(out);
    py::gil_scoped_release release;
    env_->reset(seed);
  }

  static py::tuple reset(py::object self, py::object seed) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    const uint64_t s = seed.is_none() ? e.env_->seed() : seed.cast<uint64_t>();
    {
      auto lock = e.lock();
      py::gil_scoped_release release;
      e.env_->reset(s);
    }
    py::dict info;
    info["current_player"] = e.current_player_;
    info["legal_mask"] = e.legal_mask_;
    return py::make_tuple(e.obs_, info);
  }

  static py::tuple step(py::object self, py::handle actions, bool copy) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    {
      auto lock = e.lock();
      read_actions(actions, e.env_->num_envs(), e.actions_.data());
      int bad;
      {
        py::gil_scoped_release release;
        bad = e.env_->step(e.actions_.data());  // checks every action first: all or nothing
      }
      if (bad >= 0) raise_illegal(bad, e.actions_[static_cast<size_t>(bad)]);
    }
    py::dict info;
    info["current_player"] = maybe_copy(e.current_player_, copy);
    info["legal_mask"] = maybe_copy(e.legal_mask_, copy);
    info["final_observation"] = maybe_copy(e.final_observation_, copy);
    info["final_returns"] = maybe_copy(e.final_returns_, copy);
    return py::make_tuple(maybe_copy(e.obs_, copy), maybe_copy(e.rewards_, copy), maybe_copy(e.terminated_, copy),
                          maybe_copy(e.truncated_, copy), info);
  }

  static py::array sample_actions(py::object self, uint64_t seed) {
    PyBatchEnv& e = self.cast<PyBatchEnv&>();
    auto lock = e.lock();
    int64_t* out = e.sampled_.mutable_data();
    {
      py::gil_scoped_release release;
      e.env_->sample_actions(seed, out);
    }
    return e.sampled_;
  }

  py::bytes state_bytes(int i) {
    check_env(i);
    std::string raw(env_->state_size(), '\0');
    auto lock = this->lock();
    env_->get_state(i, raw.data());
    return py::bytes(raw);
  }

  void set_state_bytes(int i, const py::bytes& data, int steps) {
    check_env(i);
    const std::string raw = data;
    if (raw.size() != env_->state_size()) {
      throw py::value_error("state bytes must be " + std::to_string(env_->state_size()) + " long");
    }
    char err[kErrLen] = "";
    auto lock = this->lock();
    if (!env_->set_state(i, raw.data(), steps, err, kErrLen)) throw py::value_error(err);
  }

  const BatchEnvBase& env() const { return *env_; }

 private:
  // Serializes calls on one env (its arrays and states are shared). When another thread holds
  // it, it is waited for with the GIL released, so that the waiting thread never blocks the
  // thread that holds it; uncontended, try_lock takes it without a GIL round trip.
  std::unique_lock<std::mutex> lock() {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {
      py::gil_scoped_release release;
      lock.lock();
    }
    return lock;
  }

  void check_env(int i) const {
    if (i < 0 || i >= env_->num_envs()) {
      throw py::index_error("env index " + std::to_string(i) + " out of range [0, " +
                            std::to_string(env_->num_envs()) + ")");
    }
  }

  static py::object maybe_copy(const py::array& a, bool copy) { return copy ? a.attr("copy")() : py::object(a); }

  std::unique_ptr<BatchEnvBase> env_;
  py::array_t<float> obs_, final_observation_;
  py::array_t<double> rewards_, final_returns_;
  py::array_t<bool> terminated_, truncated_, legal_mask_;
  py::array_t<int32_t> current_player_;
  py::array_t<int64_t> sampled_;
  std::vector<int64_t> actions_;
  std::mutex mutex_;
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
      .def(py::init<const std::string&, const py::bytes&, int64_t, int64_t, int, uint64_t, int, int>(),
           py::arg("game"), py::arg("config"), py::arg("state_size"), py::arg("state_version"), py::arg("num_envs"),
           py::arg("seed"), py::arg("threads"), py::arg("max_steps"))
      .def("reset", &PyBatchEnv::reset, py::arg("seed") = py::none(),
           "Deals game 0 of every env (from a new base seed if given); returns (obs, info).")
      .def("step", &PyBatchEnv::step, py::arg("actions"), py::arg("copy") = false,
           "One action per env; returns (obs, rewards, terminated, truncated, info). See docs/API.md. "
           "Raises IllegalAction(env, action), moving no env, if any action is illegal.")
      .def("sample_actions", &PyBatchEnv::sample_actions, py::arg("seed"),
           "One uniformly random legal action per env (env i from derive_seed(seed ^ salt, i)); the same "
           "int64 array every call, overwritten.")
      .def("_state_bytes", &PyBatchEnv::state_bytes, py::arg("i"))
      .def("_set_state_bytes", &PyBatchEnv::set_state_bytes, py::arg("i"), py::arg("data"), py::arg("steps"))
      .def_property_readonly("num_envs", [](const PyBatchEnv& e) { return e.env().num_envs(); })
      .def_property_readonly("threads", [](const PyBatchEnv& e) { return e.env().threads(); })
      .def_property_readonly("seed", [](const PyBatchEnv& e) { return e.env().seed(); })
      .def_property_readonly("max_episode_steps", [](const PyBatchEnv& e) { return e.env().max_steps(); })
      .def_property_readonly("num_actions", [](const PyBatchEnv& e) { return e.env().info().num_actions; })
      .def_property_readonly("players", [](const PyBatchEnv& e) { return e.env().info().players; })
      .def_property_readonly("observation_size", [](const PyBatchEnv& e) { return e.env().info().observation_size; });
}

}  // namespace dimsum::bindings
