// run_inside: checks the options, picks the instantiation for the book type and statistics configuration,
// and the runner (run_loop.hpp, run_decoded.hpp, run_sharded.hpp).
#include <itch5/inside/run_inside.hpp>

#include <stdexcept>
#include <string>
#include <thread>

#include <itch5/book/book_types.hpp>

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
    throw std::invalid_argument("run_inside: slowest needs threads == 1 (book threads time batches, not messages)");
  }
  book::with_book_type(options.book, [&]<class Book>() {
    auto run = [&]<bool Timed, bool Depth>() {
      if (options.threads == 1) {
        // Lines on a thread of their own unless messages are timed (statistics, slowest), whose times
        // include formatting the line.
        if constexpr (!Timed) {
          if (options.slowest == 0) {
            // From gzip on two cores the inflater keeps the second core busy, and a decode thread beside it
            // costs more than it saves: there the books' thread reads the inflated blocks itself, and only
            // the lines get a thread of their own (50 M day, ISA-L: 3.21 s with a decode thread and the
            // lines on the books' thread, 3.02 s so; 20 M day 1.27 s and 1.24 s; neither 3.51 s and 1.30 s).
            const bool cores_to_spare = !reader.compressed() || std::thread::hardware_concurrency() > 2;
            if (options.decode_thread && cores_to_spare) {
              if (options.line_thread) {
                run_decoded<Book, Depth, line_thread>(reader, options, out, progress, r);
              } else {
                run_decoded<Book, Depth, line_formatter>(reader, options, out, progress, r);
              }
              return;
            }
            if (options.line_thread) {
              run_loop<Book, Timed, Depth, line_thread>(reader, options, out, progress, r);
              return;
            }
          }
        }
        run_loop<Book, Timed, Depth, line_formatter>(reader, options, out, progress, r);
      } else {
        run_sharded<Book, Timed, Depth>(reader, options, out, progress, r);
      }
    };
    if ((options.stats && options.depth) || options.histograms) {
      run.template operator()<true, true>();
    } else if (options.stats) {
      run.template operator()<true, false>();
    } else if (options.depth) {
      run.template operator()<false, true>();
    } else {
      run.template operator()<false, false>();
    }
  });
  return r;
}

}  // namespace itch5::inside
