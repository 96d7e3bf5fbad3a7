// Test-only checks of ThreadPool's failure paths (src/dimsum_core/common/thread_pool.hpp): a
// block that throws on a worker or on the caller, several that throw at once, a watched run
// whose poll throws or whose blocks throw (on workers, or inline on a pool of size 1). Each
// case asserts that the first exception reaches the caller exactly once, that no block starts
// after it, and that the pool then runs a normal job right. Built and run by
// tests/test_interrupts.py, and by .ci/sanitize under ASan + UBSan and under TSan: a worker
// still touching the job (on the caller's stack) after run() returned is a use-after-free
// there, a missing happens-before a data race.
//
// Prints "ok" and exits 0, or names the failed check and exits 1.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dimsum_core/common/thread_pool.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what.c_str());
    ++failures;
  }
}

// A normal job after a failed one: every item done exactly once.
void check_still_works(dimsum::ThreadPool& pool, const std::string& where) {
  std::vector<int> hits(1000, 0);
  pool.run(1000, 7, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) ++hits[static_cast<size_t>(i)];
  });
  check(std::accumulate(hits.begin(), hits.end(), 0) == 1000 &&
            std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }),
        where + ": the next run does every item once");
}

// One block throws std::bad_alloc: on a worker's share (`block` high) or the caller's (0).
void block_throws(int threads, int64_t block, int round) {
  dimsum::ThreadPool pool(threads);
  std::atomic<int> after{0};  // blocks started after the throwing one began to throw
  std::atomic<bool> thrown{false};
  int caught = 0;
  try {
    pool.run(64, 1, [&](int64_t first, int64_t) {
      if (thrown.load()) {
        // The throw is on its way to the pool (allocated, unwinding: hundreds of microseconds under
        // the sanitizers on a loaded machine, where 8 blocks of 50 us once started meanwhile). A
        // block that starts in that window waits for it to arrive, so that a second one on the same
        // thread means the pool went on after it knew.
        after.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return;
      }
      if (first == block) {
        thrown.store(true);
        throw std::bad_alloc();
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    });
  } catch (const std::bad_alloc&) {
    ++caught;
  }
  const std::string where =
      "threads=" + std::to_string(threads) + " block " + std::to_string(block) + " round " + std::to_string(round);
  check(caught == 1, where + ": bad_alloc reaches the caller once");
  // a block already taken when the throw came may still start; no more than one per other thread
  check(after.load() <= threads - 1, where + ": no block is started once one has thrown (" +
                                         std::to_string(after.load()) + " were)");
  check_still_works(pool, where);
}

// Every block throws: one exception out, the others dropped.
void all_throw(int threads) {
  dimsum::ThreadPool pool(threads);
  int caught = 0;
  try {
    pool.run(32, 1, [&](int64_t first, int64_t) { throw std::runtime_error("block " + std::to_string(first)); });
  } catch (const std::runtime_error& e) {
    caught += std::string(e.what()).rfind("block ", 0) == 0 ? 1 : 100;
  }
  check(caught == 1, "threads=" + std::to_string(threads) + ": every block throws, one exception out");
  check_still_works(pool, "after all blocks threw");
}

// run_watched: the caller polls and takes no block; a throwing poll stops the run, and so does a
// throwing block; the job's data stays on the caller's stack.
void watched() {
  for (int threads : {2, 3}) {
    dimsum::ThreadPool pool(threads);
    std::atomic<bool> stop{false};
    std::atomic<int> polls{0};
    std::vector<int> owner(64, -1);
    const auto caller = std::this_thread::get_id();
    bool caller_ran_a_block = false;
    try {
      pool.run_watched(
          64, 1,
          [&](int64_t first, int64_t last) {
            if (std::this_thread::get_id() == caller) caller_ran_a_block = true;
            for (int64_t i = first; i < last; ++i) owner[static_cast<size_t>(i)] = 1;
            while (!stop.load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
          },
          [&] {
            if (polls.fetch_add(1) == 2) {
              stop.store(true);
              throw std::runtime_error("interrupted");
            }
          },
          std::chrono::microseconds(1000));
      check(false, "a throwing poll is rethrown");
    } catch (const std::runtime_error& e) {
      check(std::string(e.what()) == "interrupted", "the poll's exception is the one rethrown");
    }
    check(polls.load() == 3, "poll is called until it throws, then no more (" + std::to_string(polls.load()) + ")");
    check(!caller_ran_a_block, "a watched run's caller takes no block");
    check_still_works(pool, "after a watched run");

    int caught = 0, watched_polls = 0;
    try {
      pool.run_watched(
          8, 1, [&](int64_t first, int64_t) { if (first == 5) throw std::bad_alloc(); },
          [&] { ++watched_polls; }, std::chrono::microseconds(500));
    } catch (const std::bad_alloc&) {
      ++caught;
    }
    check(caught == 1, "a watched run's throwing block reaches the caller once");

    std::vector<int> hits(100, 0);  // a watched run that succeeds does every item once
    pool.run_watched(
        100, 3, [&](int64_t first, int64_t last) {
          for (int64_t i = first; i < last; ++i) ++hits[static_cast<size_t>(i)];
        },
        [] {}, std::chrono::microseconds(500));
    check(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }), "a watched run does every item once");
  }
  // size 1: the caller runs the blocks and polls between them; a throwing poll stops the rest
  dimsum::ThreadPool inline_pool(1);
  int blocks = 0, polls = 0;
  bool caught = false;
  try {
    inline_pool.run_watched(
        1000, 1,
        [&](int64_t, int64_t) {
          ++blocks;
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        },
        [&] {
          if (++polls == 3) throw std::runtime_error("interrupted");
        },
        std::chrono::microseconds(1000));
  } catch (const std::runtime_error&) {
    caught = true;
  }
  check(caught && polls == 3, "an inline watched run polls between blocks and stops when poll throws");
  check(blocks >= 3 && blocks < 1000, "no block runs after the poll threw (" + std::to_string(blocks) + " ran)");
}

}  // namespace

int main() {
  for (int round = 0; round < 20; ++round) {
    for (int threads : {2, 4}) {
      block_throws(threads, 0, round);   // the caller's share
      block_throws(threads, 63, round);  // the last worker's share
      block_throws(threads, 40, round);
    }
  }
  all_throw(2);
  all_throw(4);
  watched();
  if (failures) return 1;
  std::printf("ok\n");
  return 0;
}
