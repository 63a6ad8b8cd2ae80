#include <itch5/cli/path_guard.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace itch5::cli {
namespace {

// What a path will denote when the run writes or reads it.
struct identity {
  enum class kind {
    file,
    future,
    stream
  } what = kind::file;  // an existing file, a name to be created, stdin/stdout
  dev_t dev = 0;
  ino_t ino = 0;
  std::string name;  // future: the last component (dev/ino are its directory's)
  bool character_device = false;

  friend bool operator==(const identity& a, const identity& b) {
    return a.what == b.what && a.dev == b.dev && a.ino == b.ino && a.name == b.name;
  }
};

std::string quoted(const std::string& path) { return "'" + path + "'"; }

std::string describe(const std::string& role, const std::string& path) {
  if (path == "-") return role + " (-)";
  return role + " " + quoted(path);
}

std::string errno_text() { return std::strerror(errno); }

// Splits "dir/name" into the directory to stat and the name; "name" has directory ".".
std::pair<std::string, std::string> split(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  if (slash == 0) return {"/", path.substr(1)};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

identity of_stat(const struct stat& st) {
  identity id;
  id.what = identity::kind::file;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  id.character_device = S_ISCHR(st.st_mode);
  return id;
}

// Standard input or output: the file it is redirected from or to, when that is a regular file.
identity of_stream(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return of_stat(st);
  identity id;
  id.what = identity::kind::stream;
  id.name = fd == 0 ? "stdin" : "stdout";
  return id;
}

identity of_input(const std::string& path) {
  if (path == "-") return of_stream(STDIN_FILENO);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw path_error(path_error::kind::unusable, path + ": cannot open: " + errno_text());
  if (S_ISDIR(st.st_mode))
    throw path_error(path_error::kind::unusable, path + ": is a directory, not a file");
  if (::access(path.c_str(), R_OK) != 0) {
    throw path_error(path_error::kind::unusable, path + ": cannot open: " + errno_text());
  }
  return of_stat(st);
}

// An output (or the FILE.partial name of one): checks that it can be written, returns what it denotes.
// `check_writable` is false for FILE.partial names, which are only compared (nullopt: cannot exist).
std::optional<identity> of_output(const std::string& path, const std::string& role, bool check_writable) {
  if (path == "-") return of_stream(STDOUT_FILENO);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw path_error(path_error::kind::unusable, describe(role, path) + " is a directory, not a file");
    if (check_writable && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0) {
      throw path_error(path_error::kind::unusable, describe(role, path) + " exists and is not writable (" +
                                                       errno_text() + "); refusing to replace it");
    }
    if (check_writable && !S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0) {
      throw path_error(path_error::kind::unusable, describe(role, path) + ": cannot write: " + errno_text());
    }
    if (!S_ISREG(st.st_mode)) return of_stat(st);  // a device or FIFO, written in place
  } else if (errno != ENOENT) {
    throw path_error(path_error::kind::unusable, describe(role, path) + ": " + errno_text());
  }
  // A regular file is written under a temporary name in its directory and renamed: the directory matters.
  const auto [dir, name] = split(path);
  if (name.empty() || name == "." || name == "..")
    throw path_error(path_error::kind::conflict, describe(role, path) + " is not a file name");
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0) {
    if (!check_writable) return std::nullopt;
    throw path_error(path_error::kind::unusable,
                     describe(role, path) + ": directory " + quoted(dir) + ": " + errno_text());
  }
  if (!S_ISDIR(dst.st_mode))
    throw path_error(path_error::kind::unusable,
                     describe(role, path) + ": " + quoted(dir) + " is not a directory");
  if (check_writable && ::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw path_error(path_error::kind::unusable, describe(role, path) +
                                                     ": cannot create files in directory " + quoted(dir) +
                                                     " (" + errno_text() + ")");
  }
  if (::stat(path.c_str(), &st) == 0) return of_stat(st);
  identity id;
  id.what = identity::kind::future;
  id.dev = dst.st_dev;
  id.ino = dst.st_ino;
  id.name = name;
  return id;
}

}  // namespace

void path_guard::input(std::string path, std::string role) {
  entries_.push_back({std::move(path), std::move(role), use::in});
}

void path_guard::distinct_input(std::string path, std::string role) {
  entries_.push_back({std::move(path), std::move(role), use::in, true});
}

void path_guard::output(std::string path, std::string role) {
  if (!path.empty()) entries_.push_back({std::move(path), std::move(role), use::out});
}

void path_guard::input_output(std::string path, std::string role) {
  if (!path.empty()) entries_.push_back({std::move(path), std::move(role), use::in_out});
}

void path_guard::check() const {
  struct resolved {
    const entry* e;
    identity id;
    std::optional<identity> partial;  // outputs written through a temporary file: their FILE.partial
  };
  std::vector<resolved> inputs, outputs;
  const entry* stdin_user = nullptr;
  const entry* stdout_user = nullptr;
  for (const auto& e : entries_) {
    if (e.how == use::in) {
      if (e.path == "-") {
        if (stdin_user != nullptr) {
          throw path_error(path_error::kind::conflict, "standard input (-) is given twice, as " +
                                                           stdin_user->role + " and as " + e.role +
                                                           "; it can be read only once");
        }
        stdin_user = &e;
      }
      inputs.push_back({&e, of_input(e.path), std::nullopt});
      if (e.distinct) {
        const resolved& r = inputs.back();
        for (std::size_t i = 0; i + 1 < inputs.size(); ++i) {
          const resolved& other = inputs[i];
          if (other.e->distinct && other.id == r.id && r.id.what != identity::kind::stream) {
            throw path_error(path_error::kind::conflict, describe(e.role, e.path) + " is the same file as " +
                                                             describe(other.e->role, other.e->path) +
                                                             ": each is read once, not twice");
          }
        }
      }
      continue;
    }
    if (e.path == "-") {
      if (e.how == use::in_out)
        throw path_error(path_error::kind::conflict, e.role + " cannot be - (it is read and then replaced)");
      if (stdout_user != nullptr) {
        throw path_error(path_error::kind::conflict, "standard output (-) is given twice, as " +
                                                         stdout_user->role + " and as " + e.role +
                                                         "; only one output can go there");
      }
      stdout_user = &e;
      outputs.push_back({&e, of_stream(STDOUT_FILENO), std::nullopt});
      continue;
    }
    if (e.how == use::in_out) {
      struct stat st {};
      if (::stat(e.path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
          throw path_error(path_error::kind::unusable, describe(e.role, e.path) + " is not a regular file");
        if (::access(e.path.c_str(), R_OK | W_OK) != 0) {
          throw path_error(path_error::kind::unusable,
                           describe(e.role, e.path) + ": cannot read and replace it (" + errno_text() + ")");
        }
      }
    }
    resolved r{&e, *of_output(e.path, e.role, true), std::nullopt};
    if (r.id.what != identity::kind::file || !r.id.character_device) {
      r.partial = of_output(e.path + ".partial", e.role, false);
    }
    if (e.how == use::in_out) inputs.push_back(r);
    outputs.push_back(std::move(r));
  }

  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const resolved& o = outputs[i];
    for (const auto& in : inputs) {
      if (in.e == o.e) continue;
      if (in.id == o.id && o.id.what != identity::kind::stream) {
        if (o.e->path == "-") {
          throw path_error(path_error::kind::conflict, "standard output is redirected to " +
                                                           describe(in.e->role, in.e->path) +
                                                           ": refusing to overwrite an input");
        }
        throw path_error(path_error::kind::conflict,
                         describe(o.e->role, o.e->path) + " is the same file as " +
                             describe(in.e->role, in.e->path) + ": refusing to overwrite an input");
      }
      if (o.partial && in.id == *o.partial) {
        throw path_error(path_error::kind::conflict,
                         describe(o.e->role, o.e->path) + " would keep an incomplete output as '" +
                             o.e->path + ".partial', which is " + describe(in.e->role, in.e->path) +
                             ": refusing to risk an input");
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      const resolved& p = outputs[j];
      const bool both_devices = o.id.character_device && p.id.character_device;
      if (o.id == p.id && o.id.what != identity::kind::stream && !both_devices) {
        throw path_error(path_error::kind::conflict,
                         describe(p.e->role, p.e->path) + " and " + describe(o.e->role, o.e->path) +
                             " are the same file; each output needs a file of its own");
      }
      if ((o.partial && p.id == *o.partial) || (p.partial && o.id == *p.partial)) {
        throw path_error(
            path_error::kind::conflict,
            describe(p.e->role, p.e->path) + " and " + describe(o.e->role, o.e->path) +
                " collide: one is the other's FILE.partial name; each output needs a file of its own");
      }
    }
  }
}

}  // namespace itch5::cli
