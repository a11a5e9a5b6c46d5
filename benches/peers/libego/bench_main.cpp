// Light-playout speed of libEGO, measured the way yomi-go's `playout_count` example measures
// its own: playouts from the empty 9x9 board to two passes, one thread, playouts per second
// of this process's CPU time. This driver is yomi's code; everything it runs is libEGO's
// (Lukasz Lew, https://github.com/lukaszlew/libego, GPL), compiled in as one unit the way
// libEGO's own ego.cpp builds, and its loop is the one of libEGO's Benchmark::run
// (ego/benchmark.cpp): load the empty board, run Playout<SimplePolicy>, score.
//
// Usage: bench [seconds]   (default 3)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
using namespace std;

#include "config.h"
#include "utils.h"
#include "fast_random.h"
#include "fast_map.h"
#include "player.h"
#include "color.h"
#include "vertex.h"
#include "move.h"
#include "hash.h"
#include "board.h"
#include "playout.h"

#include "utils.cpp"
#include "fast_random.cpp"
#include "player.cpp"
#include "color.cpp"
#include "vertex.cpp"
#include "move.cpp"
#include "hash.cpp"
#include "board.cpp"
#include "playout.cpp"

static double seconds(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

Board start_board[1];
Board mc_board[1];

int main(int argc, char** argv) {
  double budget = argc > 1 ? atof(argv[1]) : 3.0;
  SimplePolicy policy;
  Playout<SimplePolicy> playout(&policy, mc_board);
  unsigned long long playouts = 0, finished = 0, moves = 0, black_wins = 0;
  double wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
  double wall1 = wall0;
  while (wall1 - wall0 < budget) {
    // 1000 playouts between clock reads, as Benchmark::run does.
    for (int i = 0; i < 1000; i++) {
      mc_board->load(start_board);
      playout_status_t status = playout.run();
      playouts++;
      moves += playout.move_history_length;
      if (status == pass_pass) {
        finished++;
        // Board::score() includes libEGO's default komi; shifted by 7 it is komi 7.5.
        if (mc_board->score() - 7 > 0) black_wins++;
      }
    }
    wall1 = seconds(CLOCK_MONOTONIC);
  }
  double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
  printf("libego 9x9 light playouts: %.0f playouts/s (cpu), %.0f playouts/s (wall), "
         "%.1f moves each, black wins %.3f at komi 7.5\n",
         playouts / cpu, playouts / (wall1 - wall0), double(moves) / playouts,
         double(black_wins) / finished);
  return 0;
}
