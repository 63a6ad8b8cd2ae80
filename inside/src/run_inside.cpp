// run_inside: checks the options, asks choose_strategy (strategy.hpp) for the run's shape, and calls the
// runner it names (run_loop.hpp, run_decoded.hpp, run_sharded.hpp), instantiated for the book type and the
// statistics configuration.
#include <itch5/inside/run_inside.hpp>

#include <stdexcept>
#include <string>
#include <thread>

#include <itch5/book/book_types.hpp>

#include <itch5/inside/strategy.hpp>

#include "levels_output.hpp"
#include "line_formatter.hpp"
#include "line_thread.hpp"
#include "run_decoded.hpp"
#include "run_loop.hpp"
#include "run_sharded.hpp"

namespace itch5::inside {

inside_result run_inside(itch5::message_reader& reader, const inside_options& options, line_sink& out,
                         const progress_callback& progress) {
  inside_result r;
  if (options.threads == 0 || options.threads > max_threads) {
    throw std::invalid_argument("run_inside: threads must be between 1 and " + std::to_string(max_threads));
  }
  if (options.slowest > 0 && options.threads > 1) {
    throw std::invalid_argument(
        "run_inside: slowest needs threads == 1 (book threads time batches, not messages)");
  }
  if (options.tables.book_levels != nullptr) levels_output::check(options.tables);
  const strategy how = choose_strategy(options, reader.compressed(), std::thread::hardware_concurrency());
  book::with_book_type(options.book, [&]<class Book>() {
    auto run = [&]<bool Timed, bool Depth>() {
      if (how.sharded) {
        run_sharded<Book, Timed, Depth>(reader, options, out, progress, r);
        return;
      }
      if (how.decode_thread && how.tables) {
        if (how.line_thread) {
          run_decoded<Book, Timed, Depth, line_thread, true>(reader, options, out, progress, r);
        } else {
          run_decoded<Book, Timed, Depth, line_formatter, true>(reader, options, out, progress, r);
        }
        return;
      }
      if (how.decode_thread) {
        if (how.line_thread) {
          run_decoded<Book, Timed, Depth, line_thread>(reader, options, out, progress, r);
        } else {
          run_decoded<Book, Timed, Depth, line_formatter>(reader, options, out, progress, r);
        }
        return;
      }
      if (how.tables) {
        if (how.line_thread) {
          run_loop<Book, Timed, Depth, line_thread, true>(reader, options, out, progress, r);
        } else {
          run_loop<Book, Timed, Depth, line_formatter, true>(reader, options, out, progress, r);
        }
        return;
      }
      if (how.line_thread) {
        run_loop<Book, Timed, Depth, line_thread>(reader, options, out, progress, r);
        return;
      }
      run_loop<Book, Timed, Depth, line_formatter>(reader, options, out, progress, r);
    };
    if (how.timed && how.depth) {
      run.template operator()<true, true>();
    } else if (how.timed) {
      run.template operator()<true, false>();
    } else if (how.depth) {
      run.template operator()<false, true>();
    } else {
      run.template operator()<false, false>();
    }
  });
  return r;
}

}  // namespace itch5::inside
