// A small persistent thread pool for the batch engine: std::thread, one mutex and two
// condition variables, no OpenMP (portable, and a pool per BatchEnv that lives as long as it).
//
// run(n, grain, f) calls f(first, last) over [0, n) cut into blocks of `grain` items. Each
// thread owns a home share of [0, n) (the same share every run, so an env's state stays in the
// cache of the core that last stepped it) and takes blocks from it through its own atomic
// cursor; a thread that finishes its share then steals blocks from the others' shares, so a
// core taken by another process only delays one block, not a whole share. Callers keep blocks
// small (a few microseconds of work: BatchEnv's are 2-8 envs), so that a worker preempted
// inside its block holds back little, and the caller finishes everything else. The calling thread
// works too: a pool of size T owns T - 1 worker threads, and a pool of size 1 runs everything
// inline with no synchronization.
//
// Which thread runs which block never changes a result: callers only use it for work whose
// items are independent (one env, one game), so results never depend on the thread count.
//
// Latency matters more than throughput here (a batch step is tens of microseconds), so an idle
// worker first spins on the generation counter for a short while (with the CPU's pause hint)
// and only then sleeps on the condition variable; the caller likewise spins briefly for the
// last block. Spinning, not std::this_thread::yield(): on a busy machine a yielding worker
// gave its core away for a whole time slice and so was almost never there when work came.
//
// When another process holds the other core, a worker is late: it was spinning but not on a
// core when the run came (the caller took every block itself), or it was preempted inside a
// block and the caller had to wait for it. Two threads then ran at 0.5-0.7x of one: the worker
// took CPU time from the caller and the caller waited for it, up to a time slice (milliseconds,
// however small the block: the block cannot be taken back once started). So the pool backs
// off, in time rather than in runs (a wait costs the same whatever the batch size): after a
// run whose workers were late, the runs of the next kMinBackoff go inline, then twice as long
// after every late run up to kMaxBackoff; a run on time halves the backoff, so that on a busy
// machine one lucky run does not bring back a wait per time slice. A worker that finds
// its run already closed goes straight to sleep rather than spinning (it is not getting a core
// in time, and its spinning is what slows the caller). A worker that was asleep when the run
// came is expected to be late (it must be woken and scheduled), so such a run is not held
// against the workers unless the caller had to wait for one; at the end of a backoff the
// workers are woken one run ahead, and a late run then doubles the backoff.
//
// A block that throws (std::bad_alloc in a big search) does not end the process: every thread
// catches what its blocks throw, the first exception is kept and no further block is started,
// and the caller rethrows it once every worker has let go of the job (which lives on the
// caller's stack). Blocks already running finish (a long block that should stop early watches a
// flag of its own, set by the job when a block throws: bots/ismcts.hpp).
//
// run_watched() is run() for long jobs that must stay interruptible: the caller takes no block
// but calls poll() at a fixed interval until the workers are done (the Python bindings poll
// for Ctrl-C there; poll() throws to stop the run, and a long block watches a flag of its own).
// A pool of size 1 runs the blocks itself and polls between them.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64))
#include <intrin.h>
#endif

namespace dimsum {

// A hint to the CPU that this is a spin-wait loop (saves power, frees the sibling hyperthread).
inline void cpu_relax() noexcept {
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
  __asm__ __volatile__("yield");
#elif defined(_MSC_VER) && defined(_M_ARM64)
  __yield();  // Windows on ARM64: MSVC has no inline assembly there, the intrinsic is the same hint
#endif  // elsewhere: a plain busy loop, still bounded by kPollFor
}

// A pool could not start its worker threads (std::thread threw): `wanted` workers were asked
// for and `started` of them had started (all stopped and joined again by then).
class ThreadStartError : public std::system_error {
 public:
  ThreadStartError(std::error_code code, int wanted, int started)
      : std::system_error(code, "could not start worker thread " + std::to_string(started + 1) + " of " +
                                    std::to_string(wanted)),
        wanted_(wanted),
        started_(started) {}

  int wanted() const noexcept { return wanted_; }
  int started() const noexcept { return started_; }

 private:
  int wanted_, started_;
};

class ThreadPool {
 public:
  // `threads` counts the calling thread: 1 means inline.
  // If a worker thread cannot be started (a thread limit, the pids cgroup, the address space),
  // the workers already started are stopped and joined before the error leaves: a
  // ThreadStartError (a std::system_error) when std::thread failed, else what was thrown
  // (std::bad_alloc). Never a joinable std::thread destroyed (std::terminate), never a worker
  // left waiting on a pool that is gone.
  explicit ThreadPool(int threads) : size_(std::max(1, threads)) {
    workers_.reserve(static_cast<size_t>(size_ - 1));
    try {
      for (int t = 1; t < size_; ++t) workers_.emplace_back([this, t] { worker_loop(t); });
    } catch (const std::system_error& e) {
      const int started = static_cast<int>(workers_.size());
      stop_and_join();
      throw ThreadStartError(e.code(), size_ - 1, started);
    } catch (...) {
      stop_and_join();
      throw;
    }
  }

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  ~ThreadPool() { stop_and_join(); }

  int size() const { return size_; }

  // Calls f(first, last) on disjoint blocks covering [0, n); returns when all are done.
  // Not reentrant: one run at a time per pool (BatchEnv serializes its calls).
  template <class F>
  void run(int64_t n, int64_t grain, F&& f) {
    if (n <= 0) return;
    grain = std::max<int64_t>(1, grain);
    if (size_ == 1 || n <= grain) return f(int64_t{0}, n);
    if (backing_off_) {
      if (Clock::now() >= inline_until_) {
        backing_off_ = false;
        wake_workers();  // so that they are awake for the next run
      }
      return f(int64_t{0}, n);
    }
    const bool workers_were_awake = sleeping_.load(std::memory_order_relaxed) == 0;
    Job job = make_job(grain, f);
    for (int t = 0; t < size_; ++t) {
      Share& share = shares_[static_cast<size_t>(t)];
      share.next.store(n * t / size_, std::memory_order_relaxed);
      share.end = n * (t + 1) / size_;
    }
    publish(job);
    work_on(job, 0);
    const bool all_joined = close_job();
    const bool waited = !wait_for_workers_briefly();
    back_off_if_late(all_joined && !waited, workers_were_awake || waited);
    rethrow_first_error();
  }

  // Like run(), but every block runs on a worker thread while the calling thread calls poll()
  // every `every` until all blocks are done; what poll() throws stops the run like a block's
  // exception (rethrown here once the workers are done). Never backs off: the caller is not
  // there to work. With size() 1, the caller runs the blocks and polls between them, once
  // `every` has passed (a block then bounds the interval: keep blocks short).
  template <class F, class Poll>
  void run_watched(int64_t n, int64_t grain, F&& f, Poll&& poll, std::chrono::microseconds every) {
    if (n <= 0) return;
    if (size_ == 1) {
      grain = std::max<int64_t>(1, grain);
      auto next_poll = Clock::now() + every;
      for (int64_t first = 0; first < n; first += std::min(grain, n - first)) {
        if (Clock::now() >= next_poll) {
          poll();
          next_poll = Clock::now() + every;
        }
        f(first, first + std::min(grain, n - first));
      }
      return;
    }
    Job job = make_job(grain, f);
    // the workers share the blocks: the caller's share (thread 0) is empty
    for (int t = 0; t < size_; ++t) {
      Share& share = shares_[static_cast<size_t>(t)];
      share.next.store(t == 0 ? 0 : n * (t - 1) / (size_ - 1), std::memory_order_relaxed);
      share.end = t == 0 ? 0 : n * t / (size_ - 1);
    }
    publish(job);
    auto all_done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(done_mutex_);
        if (all_finished_.wait_for(lock, every, all_done)) break;
      }
      try {
        poll();
      } catch (...) {
        keep_error(std::current_exception());
      }
    }
    close_job();  // every worker joined and finished: nothing left to let off
    rethrow_first_error();
  }

 private:
  struct Job {
    void (*call)(void*, int64_t, int64_t) = nullptr;
    void* ctx = nullptr;
    int64_t grain = 1;
  };

  // One thread's home share of a run: blocks [next, end) not yet taken. Padded to a cache
  // line (padding, not alignas, which MSVC's /W4 warns about), so that threads taking blocks
  // from their own shares never write to the same line.
  struct Share {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
    char padding[64 - sizeof(std::atomic<int64_t>) - sizeof(int64_t)] = {};
  };

  // How long an idle thread spins before it sleeps: long enough to cover the gap between two
  // steps of a tight Python loop (sampling actions, a small numpy policy), short enough that a
  // spinning worker does not take much CPU from our own caller when another process holds the
  // other core. Measured on 2 shared cores (1024 envs): 20 us and 200 us gave the same best
  // 2-thread speedup (1.8x), and 20 us lost less when the machine got busy mid-run.
  static constexpr std::chrono::microseconds kPollFor{50};
  using Clock = std::chrono::steady_clock;

  // Time spent running inline after the first late run, and the most after several in a row.
  // A probe of the workers on a busy machine costs up to a time slice (a few ms) of waiting for
  // a preempted worker, so at kMaxBackoff a probe costs a few per cent of a busy machine's time;
  // a machine that gets quiet again gets its second thread back within that time.
  static constexpr std::chrono::microseconds kMinBackoff{500};
  static constexpr std::chrono::microseconds kMaxBackoff{128000};

  template <class F>
  static Job make_job(int64_t grain, F& f) {
    Job job;
    job.call = [](void* ctx, int64_t first, int64_t last) { (*static_cast<F*>(ctx))(first, last); };
    job.ctx = static_cast<void*>(&f);
    job.grain = std::max<int64_t>(1, grain);
    return job;
  }

  // Hands `job` (its shares already cut) to the workers.
  void publish(Job& job) {
    pending_.store(size_ - 1, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      warming_ = false;
      joined_ = 0;
      generation_.fetch_add(1, std::memory_order_release);
    }
    work_ready_.notify_all();
  }

  // The first exception of a run is kept (later ones are dropped: they are usually the same
  // failure seen by another thread) and no more blocks are started.
  void keep_error(std::exception_ptr e) noexcept {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::move(e);
    failed_.store(true, std::memory_order_relaxed);
  }

  // Called by the caller once no worker touches the job any more.
  void rethrow_first_error() {
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lock(error_mutex_);
      e = std::exchange(error_, nullptr);
    }
    if (e) std::rethrow_exception(e);
  }

  // `on_time`: every worker joined before the caller ran out of blocks, and none kept it
  // waiting. `telling`: a late worker means contention (it was awake, or the caller waited).
  // After a backoff, the workers were woken one run ahead: late again, the backoff doubles.
  void back_off_if_late(bool on_time, bool telling) {
    if (on_time) {
      backoff_ /= 2;
      if (backoff_ < kMinBackoff) backoff_ = Clock::duration::zero();
    } else if (telling || backoff_ > Clock::duration::zero()) {
      backoff_ = std::clamp<Clock::duration>(2 * backoff_, kMinBackoff, kMaxBackoff);
      inline_until_ = Clock::now() + backoff_;
      backing_off_ = true;
    }
  }

  // Tells every started worker to return, and waits for them. Workers only ever wait on this
  // pool (never on a run: none is in flight here), so they all see stopping_ and return.
  void stop_and_join() noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    work_ready_.notify_all();
    for (auto& w : workers_) {
      if (w.joinable()) w.join();
    }
  }

  // Thread `self` drains its own share, then the others' in turn, until a block throws.
  void work_on(const Job& job, int self) noexcept {
    for (int k = 0; k < size_; ++k) {
      Share& share = shares_[static_cast<size_t>((self + k) % size_)];
      for (;;) {
        if (failed_.load(std::memory_order_relaxed)) return;
        const int64_t first = share.next.fetch_add(job.grain, std::memory_order_relaxed);
        if (first >= share.end) break;
        try {
          job.call(job.ctx, first, std::min(share.end, first + job.grain));
        } catch (...) {
          keep_error(std::current_exception());
          return;
        }
      }
    }
  }

  template <class Done>
  static bool poll(Done&& done) {
    const auto deadline = std::chrono::steady_clock::now() + kPollFor;
    for (int i = 0;; ++i) {
      if (done()) return true;
      cpu_relax();
      if ((i & 255) == 255 && std::chrono::steady_clock::now() > deadline) return done();
    }
  }

  // Wakes the workers with no job, to spin for the next run (a worker that came too late for
  // a run sleeps at once, and a sleeping worker is always late for a short run).
  void wake_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      warming_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    work_ready_.notify_all();
  }

  // Once the caller has run out of blocks, workers that have not picked the job up yet (their
  // core busy elsewhere) are let off: the caller never waits for a thread to be scheduled
  // only to find nothing left to do. The job lives on the caller's stack, so a late worker
  // must not touch it: it sees job_ == nullptr and goes back to waiting.
  // Returns whether every worker had joined.
  bool close_job() {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
    pending_.fetch_sub(size_ - 1 - joined_, std::memory_order_acq_rel);
    return joined_ == size_ - 1;
  }

  // Returns false if the workers took longer than kPollFor (the caller then slept for them).
  bool wait_for_workers_briefly() {
    auto all_done = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    if (poll(all_done)) return true;
    std::unique_lock<std::mutex> lock(done_mutex_);
    all_finished_.wait(lock, all_done);
    return false;
  }

  void worker_loop(int self) {
    uint64_t seen = 0;
    bool spin = true;  // false once this worker came too late for a run: sleep at once
    for (;;) {
      auto new_work = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      if (!(spin && poll(new_work))) {
        std::unique_lock<std::mutex> lock(mutex_);
        sleeping_.fetch_add(1, std::memory_order_relaxed);
        work_ready_.wait(lock, new_work);
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
      }
      Job* job;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = generation_.load(std::memory_order_acquire);
        if (stopping_) return;
        job = job_;
        spin = job != nullptr || warming_;
        if (job == nullptr) continue;  // closed before this worker woke up, or a wake-up only
        ++joined_;
      }
      work_on(*job, self);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        // Taking the mutex orders this notify after the caller's predicate check: no lost wakeup.
        std::lock_guard<std::mutex> lock(done_mutex_);
        all_finished_.notify_one();
      }
    }
  }

  const int size_;
  std::vector<Share> shares_ = std::vector<Share>(static_cast<size_t>(size_));  // one per thread
  std::vector<std::thread> workers_;
  std::mutex mutex_;                     // guards job_, stopping_ and generation_ changes
  std::condition_variable work_ready_;
  std::atomic<uint64_t> generation_{0};  // bumped once per run (and at shutdown)
  Job* job_ = nullptr;                   // the current run's job; nullptr once closed
  int joined_ = 0;                       // workers that picked up the current job
  bool stopping_ = false;
  std::atomic<int> pending_{0};          // workers that may still touch the current job
  std::atomic<int> sleeping_{0};         // workers asleep on work_ready_ (a hint, not a guard)
  Clock::duration backoff_{};            // length of the last backoff (0: workers on time)
  Clock::time_point inline_until_{};     // while backing_off_: runs go inline until then
  bool backing_off_ = false;
  bool warming_ = false;                 // the last generation bump was wake_workers()
  std::mutex done_mutex_;
  std::condition_variable all_finished_;
  std::mutex error_mutex_;               // guards error_
  std::exception_ptr error_;             // the first exception of the current run
  std::atomic<bool> failed_{false};      // a block of the current run threw: start no more
};

}  // namespace dimsum
